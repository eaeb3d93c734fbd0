// Main's side of the core in its utility process: starts src-main/core-process.ts with Electron's utilityProcess,
// forwards the contract's operations to it by id and its events and attention back, and starts it again (with
// backoff) when it stops without being asked. A call in flight when it stops, or made while it is down, is answered
// `core_restarting` at once, never left hanging; the work it had acknowledged is in the DB, and the restarted core
// resumes its jobs. What main knows of the core is a CoreConnection: a remote host can stand in its place later.
import { utilityProcess } from 'electron';
import { assertNever } from '../../src-shared/assert-never';
import { backoffMs } from '../../src-shared/backoff';
import type { OperationName } from '../../src-shared/contract';
import type { Result } from '../../src-shared/errors';
import type { MaestroEvent } from '../../src-shared/events';
import type { CoreStatus } from '../../src-shared/preload-api';
import type { AttentionUpdate, CoreConnection } from '../app/core-connection';
import { type CoreStartOptions, FromCore, type ToCore } from '../app/core-messages';

/** Restarts wait 0.5 s, 1 s, 2 s … up to 30 s; a core that ran a minute starts the count again. */
export const CORE_RESTART_BACKOFF = { baseDelayMs: 500, maxDelayMs: 30_000 };
const STEADY_MS = 60_000;
/** How long a core asked to stop may take (it persists its running jobs) before it is killed. */
const STOP_GRACE_MS = 15_000;

export interface CoreProcess extends CoreConnection {
  /** The running core's pid (undefined while it is down). */
  readonly pid: number | undefined;
  /** Running, or down and coming back; returns the disposer. Called with the current status at once. */
  onStatus(listener: (status: CoreStatus) => void): () => void;
}

type Child = ReturnType<typeof utilityProcess.fork>;

/** Starts the core and resolves once it serves; a core that cannot start the first time rejects with its reason. */
export function startCoreProcess(entry: string, options: CoreStartOptions): Promise<CoreProcess> {
  let child: Child | undefined;
  let serving = false;
  let closing = false;
  let nextId = 0;
  let crashes = 0;
  let status: CoreStatus = { state: 'running' };
  const pending = new Map<number, (message: FromCore) => void>();
  const eventListeners = new Set<(event: MaestroEvent) => void>();
  const attentionListeners = new Set<(update: AttentionUpdate) => void>();
  const statusListeners = new Set<(status: CoreStatus) => void>();
  let lastAttention: AttentionUpdate = { items: [], notice: null };
  let stopped: (() => void) | undefined;

  const setStatus = (next: CoreStatus) => {
    status = next;
    for (const listener of statusListeners) listener(next);
  };
  const send = (message: ToCore) => child?.postMessage(message);
  const restarting = (message: string): Result<never> => ({ ok: false, error: { code: 'core_restarting', message } });

  const onMessage = (raw: unknown, ready: (error?: Error) => void) => {
    const parsed = FromCore.safeParse(raw);
    if (!parsed.success) {
      console.error('main dropped a message of an unknown shape from the core:', parsed.error.issues[0]?.message);
      return;
    }
    const message = parsed.data;
    switch (message.kind) {
      case 'ready':
        serving = true;
        ready();
        return;
      case 'failed':
        ready(new Error(message.message));
        return;
      case 'result':
      case 'live':
        pending.get(message.id)?.(message);
        pending.delete(message.id);
        return;
      case 'events':
        for (const event of message.events) for (const listener of eventListeners) listener(event as MaestroEvent);
        return;
      case 'attention':
        lastAttention = { items: message.items, notice: null };
        for (const listener of attentionListeners) listener(message);
        return;
      case 'stopped':
        stopped?.();
        return;
      default:
        assertNever(message, 'message from the core');
    }
  };

  const spawn = (settle: (error?: Error) => void) => {
    const startedAt = Date.now();
    // Ready, failed or gone: whichever comes first is the start's outcome.
    let settled = false;
    const ready = (error?: Error) => {
      if (settled) return;
      settled = true;
      settle(error);
    };
    const forked = utilityProcess.fork(entry, [], { serviceName: 'MAESTRO core', stdio: 'inherit' });
    child = forked;
    forked.on('message', (raw: unknown) => onMessage(raw, ready));
    forked.on('exit', (code: number) => {
      if (child !== forked) return;
      child = undefined;
      serving = false;
      // Whatever was asked of it is not answered now: said at once, not left to hang.
      for (const [id, answer] of pending) {
        answer({ kind: 'result', id, result: restarting('the core stopped before it answered; it is starting again') });
      }
      pending.clear();
      if (closing) {
        stopped?.();
        return;
      }
      ready(new Error(`the core exited with code ${code} before it was ready`));
      crashes = Date.now() - startedAt > STEADY_MS ? 1 : crashes + 1;
      const inMs = backoffMs(crashes, CORE_RESTART_BACKOFF);
      console.error(`MAESTRO: the core exited (code ${code}); starting it again in ${inMs} ms`);
      setStatus({ state: 'restarting', attempt: crashes, inMs, exitCode: code });
      setTimeout(() => {
        if (closing) return;
        spawn((error) => {
          if (error) console.error(`MAESTRO: the core did not start again: ${error.message}`);
          else setStatus({ state: 'running' });
        });
      }, inMs).unref();
    });
    forked.postMessage({ kind: 'start', options } satisfies ToCore);
  };

  const ask = (message: ToCore & { id: number }): Promise<FromCore> =>
    new Promise((resolve) => {
      pending.set(message.id, resolve);
      send(message);
    });

  const connection: CoreProcess = {
    dataDir: options.dataDir,
    get pid() {
      return serving ? child?.pid : undefined;
    },
    async call(op: OperationName, input: unknown): Promise<Result<unknown>> {
      if (!serving || closing) return restarting('the core is starting again; try once more in a moment');
      const answer = await ask({ kind: 'call', id: nextId++, op, input });
      return answer.kind === 'result' ? answer.result : restarting('the core answered out of turn');
    },
    async liveEvents() {
      if (!serving) return [];
      const answer = await ask({ kind: 'live', id: nextId++ });
      return answer.kind === 'live' ? (answer.events as MaestroEvent[]) : [];
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onAttention(listener) {
      attentionListeners.add(listener);
      listener(lastAttention);
      return () => attentionListeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
    close() {
      closing = true;
      const running = child;
      if (!running) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => running.kill(), STOP_GRACE_MS);
        stopped = () => {
          clearTimeout(timer);
          resolve();
        };
        send({ kind: 'stop' });
      });
    },
  };

  return new Promise((resolve, reject) => {
    spawn((error) => {
      if (error) {
        closing = true;
        child?.kill();
        reject(error);
      } else resolve(connection);
    });
  });
}
