import type { Maestro } from '../src-main/app/create-maestro';
import type { JobRecord } from '../src-main/db/repos/jobs';
import type { Store } from '../src-main/db/store';
import type { Engine, PieceRunContext } from '../src-main/engine/piece-result';
import type { PieceRunResult } from '../src-main/jobs/piece-run-result';
import type { WorkerOptions } from '../src-main/worker/worker';
import type { MaestroEvent } from '../src-shared/events';
import { tempDir, testMaestro } from './temp-maestro';

type Step = (ctx: PieceRunContext) => PieceRunResult | Promise<PieceRunResult>;

/** Test double of the engine: answers each runPiece with the next scripted step (default: completed). */
export class ScriptedEngine implements Engine {
  readonly calls: PieceRunContext[] = [];
  private readonly steps: Step[] = [];

  answer(...steps: Step[]): this {
    this.steps.push(...steps);
    return this;
  }

  runPiece(ctx: PieceRunContext): Promise<PieceRunResult> {
    this.calls.push(ctx);
    const step = this.steps.shift() ?? (() => ({ kind: 'completed' as const, result: 'done' }));
    return Promise.resolve().then(() => step(ctx));
  }
}

export interface Gate<T> {
  promise: Promise<T>;
  open(value: T): void;
}
export function gate<T>(): Gate<T> {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A step that waits until the job's signal aborts, then answers with `onAbort`. */
export const untilAborted =
  (onAbort: (reason: unknown) => PieceRunResult, started?: Gate<PieceRunContext>): Step =>
  (ctx) =>
    new Promise((resolve) => {
      started?.open(ctx);
      ctx.signal.addEventListener('abort', () => resolve(onAbort(ctx.signal.reason)), { once: true });
    });

export const FAST: WorkerOptions['pollIntervalMs'] = 10;

export function must<T>(value: T | undefined | null, what = 'value'): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}

export function setup(engine: Engine, worker: Partial<WorkerOptions> = {}, dataDir?: string) {
  const m = testMaestro({
    engine,
    ...(dataDir ? { dataDir } : {}),
    worker: {
      pollIntervalMs: FAST,
      heartbeatIntervalMs: 20,
      staleAfterMs: 1_000,
      stopTimeoutMs: 500,
      retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
      ...worker,
    },
  });
  const w = must(m.worker, 'worker');
  const events: MaestroEvent[] = [];
  m.store.subscribe((e) => events.push(e));
  const create = (input: Record<string, unknown> = {}) => m.invoke('createTask', { instruction: 'do it', ...input });
  const job = (id: string) => must(m.store.jobs.get(id), `job ${id}`);
  return { m, w, store: m.store, events, create, job };
}

let seq = 0;
/** A task + queued job written through the repositories (for fields createTask does not take). */
export function seed(
  m: Maestro,
  opts: { pieceId?: string; profile?: string | null; createdAt?: number; workspacePath?: string } = {},
): JobRecord {
  const taskId = `task_w${++seq}_${Date.now()}`;
  m.store.tasks.insert({
    id: taskId,
    title: 't',
    instruction: 'do it',
    pieceId: opts.pieceId ?? 'default',
    workspacePath: opts.workspacePath ?? tempDir(),
    workspaceKind: 'persistent',
    profile: opts.profile ?? null,
    parentTaskId: null,
    createdAt: opts.createdAt ?? Date.now(),
  });
  const job = m.store.jobs.insert(
    { taskId, pieceId: opts.pieceId ?? 'default', profile: opts.profile ?? null, pendingInvoke: 'UserSend' },
    opts.createdAt ?? Date.now(),
  );
  return job;
}

/** Counts the worker's claim attempts from now on (one per poll at least), so a test waits for polls, not time. */
export function countClaims(store: Store): { n: number } {
  const counter = { n: 0 };
  const claimNext = store.jobs.claimNext.bind(store.jobs);
  store.jobs.claimNext = (...args) => {
    counter.n++;
    return claimNext(...args);
  };
  return counter;
}

export const totalChanges = (store: Store) =>
  (store.db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
