// The composition root used by both entries (Electron and headless): data dir, DB, pieces, profiles (host-core.ts),
// Worker (host-worker.ts), and `invoke`, the one door to every contract operation.

import os from 'node:os';
import type { OperationName } from '../../src-shared/contract';
import type { CheckpointService } from '../checkpoints/service';
import { CommitWatcher } from '../db/postgres/commit-watcher';
import { Store } from '../db/store';
import type { Engine } from '../engine/piece-result';
import { PieceCatalog } from '../engine/pieces/catalog';
import { AttentionProjection } from '../events/attention';
import { startWebhooks } from '../events/webhooks';
import { JobAborts } from '../jobs/aborts';
import { resumeSettingsWaits } from '../jobs/settings-wait';
import type { ProfileRegistry } from '../llm/profiles';
import type { SecretBox } from '../llm/secret-box';
import { resolveWorkspaceFolder } from '../tasks/create';
import { Scheduler } from '../tasks/scheduler';
import { TaskTitles } from '../tasks/task-titles';
import type { AgentTokens } from '../tools/a2a-send';
import type { SandboxChoice } from '../tools/os-sandbox';
import type { SshKeys } from '../tools/ssh-keys';
import type { Worker, WorkerOptions } from '../worker/worker';
import type { SettingsText } from '../workspace/accepted-settings';
import { dbFile } from '../workspace/paths';
import type { AppContext } from './context';
import { prepareDataDir } from './data-dir';
import { DisposableStore } from './disposable-store';
import { type Core, openCore } from './host-core';
import { acquireHostLock } from './host-lock';
import { HostPresence } from './host-presence';
import { knownSecrets, makeWorker } from './host-worker';
import { invoke, type OpAnswer } from './operations';
import { loadSettings } from './settings-file';
import { StorageUpkeep } from './storage-upkeep';

export interface MaestroOptions {
  dataDir: string;
  /** Folder of the built-in pieces (the repository's pieces/ or the packaged app's resources). */
  piecesDir: string;
  version: string;
  /** The name this host goes by; default the machine's name. */
  hostName?: string;
  defaultWorkspace?: string | null;
  env?: NodeJS.ProcessEnv;
  /**
   * The LLM Router: a task created without a piece (outside a pinned space) gets the piece the model picks before its
   * first job. Default: on when MAESTRO_PIECE_ROUTER=1; off, such a task runs the default piece.
   */
  pieceRouter?: boolean;
  /** better_sqlite3.node built for Electron's ABI, when running inside Electron. */
  nativeBinding?: string;
  /**
   * A PostgreSQL database several hosts share (--database), opened by openMaestro's caller: createMaestroShared.
   * Without it the data dir's SQLite file is the database.
   */
  database?: { store: Store; url: string };
  /** The workspace folders this host runs jobs in, on a shared database (--serves); default: see host-presence.ts. */
  serves?: readonly string[];
  /**
   * The engine the Worker runs jobs with, or how to make it from the store and profiles. Default: the Piece engine
   * when an LLM profile is configured; without one no Worker starts and jobs wait in the queue.
   */
  engine?:
    | Engine
    | ((core: {
        store: Store;
        profiles: ProfileRegistry;
        pieces: PieceCatalog;
        sandbox: SandboxChoice;
        readSettings: SettingsText;
        agentTokens: AgentTokens;
        sshKeys: SshKeys;
        checkpoints: CheckpointService;
      }) => Engine);
  /**
   * The OS sandbox commands, package installs and stdio MCP servers run in. Default: the machine's (bubblewrap,
   * Seatbelt), hiding the data dir and the user's secret stores; where there is none, every command asks.
   */
  sandbox?: SandboxChoice;
  /**
   * Seals the API keys of saved profiles and the MCP servers' tokens. Default: AES-256-GCM with `<dataDir>/secret.key`;
   * Electron: safeStorage.
   */
  secretBox?: SecretBox;
  worker?: Partial<Omit<WorkerOptions, 'store' | 'engine' | 'pieces' | 'aborts' | 'mcp' | 'dataDir'>>;
}

// Kept here for the code that imports them from the composition root; they live apart so the desktop's main process
// can prepare the data dir without loading the core.
export { AGENT_TOKENS_FILE, DataDirError, prepareDataDir } from './data-dir';

export interface Maestro {
  readonly ctx: AppContext;
  /** What needs the person right now, and notices of waits and ends (tray, OS notifications, webhooks). */
  readonly attention: AttentionProjection;
  readonly store: Store;
  readonly worker: Worker | null;
  /** Starts the tasks of <dataDir>/schedules.json on time; null without schedules (or with a broken file). */
  readonly scheduler: Scheduler | null;
  invoke<N extends OperationName>(name: N, input: unknown): OpAnswer<N>;
  /** Starts the Worker (when there is an engine; without one, when the first LLM profile is saved). */
  start(): void;
  /** Stops claiming, persists running jobs for the next start, closes the DB. */
  close(): Promise<void>;
}

export function createMaestro(options: MaestroOptions): Maestro {
  const dataDir = prepareDataDir(options.dataDir);
  // Everything the host holds is released through `held`, in the reverse order it was taken: the lock last.
  const held = new DisposableStore();
  // One host per data dir (headless or desktop): with the lock held, a job left running was left by a dead host.
  held.add('the host lock', acquireHostLock(dataDir).release);
  try {
    return openMaestro(options, dataDir, held);
  } catch (error) {
    // Only synchronous releases are held yet (the DB, the lock): they are done when dispose returns.
    void held.dispose();
    throw error;
  }
}

/** What every operation reads: the core, the pieces, the titles, the running jobs' aborts, the host's settings. */
function appContext(options: MaestroOptions, dataDir: string, core: Core, running: () => number): AppContext {
  const { store, accepted, profiles } = core;
  const hostName = options.hostName ?? os.hostname();
  const defaultWorkspace = options.defaultWorkspace ? resolveWorkspaceFolder(options.defaultWorkspace) : null;
  return {
    checkpoints: core.checkpoints,
    store,
    pieces: new PieceCatalog(options.piecesDir, accepted),
    accepted,
    profiles,
    titles: new TaskTitles(store, profiles),
    upkeep: new StorageUpkeep(store, dataDir, dbFile(dataDir), () => loadSettings(dataDir).settings.retention),
    mcp: core.mcp,
    agentTokens: core.agentTokens,
    sshKeys: core.sshKeys,
    aborts: new JobAborts(),
    dataDir,
    defaultWorkspace,
    version: options.version,
    hostName,
    presence: new HostPresence(store, {
      name: hostName,
      version: options.version,
      dataDir,
      serves: options.serves ?? null,
      defaultWorkspace: () => defaultWorkspace,
      running,
    }),
    pieceRouter: options.pieceRouter ?? (options.env ?? process.env).MAESTRO_PIECE_ROUTER === '1',
    lessonSettings: () => loadSettings(dataDir).settings.lessons,
    secrets: () => knownSecrets(profiles),
  };
}

function openMaestro(options: MaestroOptions, dataDir: string, held: DisposableStore): Maestro {
  const core = openCore(options, dataDir, held);
  const { store, accepted, profiles } = core;
  // Kept until the Worker has stopped, so the ends of the jobs it finishes while stopping are still notified.
  // Only with <dataDir>/webhooks.json; a broken file is logged and leaves them off.
  const attention = new AttentionProjection(store).start();
  held.add('the attention projection', () => attention.dispose());
  const webhooks = startWebhooks(attention, dataDir, {
    dropped: ({ taskId, jobId, ...failure }) => store.publish({ type: 'webhook.failed', taskId, jobId, ...failure }),
  });
  if (webhooks) held.add('the webhooks', () => webhooks.dispose());
  let worker: Worker | null = null;
  const ctx = appContext(options, dataDir, core, () => worker?.activeJobs ?? 0);
  held.add('the task titles', () => ctx.titles.close());
  held.add('the storage upkeep', () => ctx.upkeep.stop());
  held.add('the host presence', () => ctx.presence.stop());
  // The other hosts' commits: their events reach this host's listeners (and SSE clients), their queued jobs its Worker.
  const watcher = options.database ? new CommitWatcher(options.database.url, () => store.catchUp()) : null;
  if (watcher) held.add('the listener of other hosts’ commits', () => watcher.close());

  worker = makeWorker(options, core, ctx);
  let started = false;
  // Stopping persists the running jobs for the next start; their MCP servers are closed as each job ends.
  held.add('the Worker', () => worker?.stop());
  // Started without any profile: the Worker comes when the first profile is saved in the app.
  held.add(
    'the profiles listener',
    profiles.onChange(() => {
      if (worker || held.disposed || !profiles.defaultName) return;
      worker = makeWorker(options, core, ctx);
      if (started) worker?.start();
    }),
  );
  held.add(
    'the queue listener',
    store.subscribe((event) => {
      if (event.type !== 'job.changed') return;
      if (event.job.status === 'queued' || event.job.status === 'retry') worker?.poke();
      // A parked job cancelled (or failed) where it waited: the MCP servers kept for its resume end.
      else if (event.job.status === 'cancelled' || event.job.status === 'failed') void core.mcp.drop(event.taskId);
      // Cancelled through another host of a shared database while it runs here: it stops now, not at its heartbeat.
      if (event.job.status === 'cancelled' && store.shared) ctx.aborts.abort(event.job.id, 'cancelled by the user');
    }),
  );
  // Only with <dataDir>/schedules.json (read at start); a broken file is logged and leaves the Scheduler off.
  const scheduler = Scheduler.fromDataDir(ctx);
  if (scheduler) held.add('the Scheduler', () => scheduler.stop());

  return {
    ctx,
    store,
    attention,
    scheduler,
    get worker() {
      return worker;
    },
    invoke: (name, input) => invoke(ctx, name, input),
    start: () => {
      started = true;
      // A job parked on its folder's settings whose files were decided (or removed) while the host was down.
      try {
        resumeSettingsWaits(store, accepted);
      } catch (error) {
        console.error('jobs waiting on settings files were not looked at:', (error as Error).message);
      }
      ctx.presence.start();
      void watcher?.start();
      worker?.start();
      scheduler?.start();
      ctx.upkeep.start();
    },
    close: () => held.dispose(),
  };
}

/**
 * A host on a PostgreSQL database several hosts share (--database): the database is migrated and opened first (an
 * unreachable one fails here, before anything else starts), then the host as createMaestro makes it.
 */
export async function createMaestroShared(options: Omit<MaestroOptions, 'database'>, url: string): Promise<Maestro> {
  const store = await Store.openPostgres(url);
  try {
    return createMaestro({ ...options, database: { store, url } });
  } catch (error) {
    store.close();
    throw error;
  }
}
