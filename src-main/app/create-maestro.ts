// The composition root used by both entries (Electron and headless): data dir, DB, pieces, profiles, Worker, and
// `invoke`, the one door to every contract operation.

import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { OperationName } from '../../src-shared/contract';
import { REFLECTION_MODES } from '../../src-shared/lessons';
import { openSnapshotStore } from '../checkpoints/git-store';
import { gcCheckpointStores } from '../checkpoints/housekeeping';
import { CheckpointService } from '../checkpoints/service';
import { CommitWatcher } from '../db/postgres/commit-watcher';
import type { JobRecord } from '../db/repos/jobs';
import { Store } from '../db/store';
import { WalCheckpointer } from '../db/wal-checkpointer';
import { createEngine } from '../engine/engine';
import type { Engine } from '../engine/piece-result';
import { PieceCatalog } from '../engine/pieces/catalog';
import { AttentionProjection } from '../events/attention';
import { startWebhooks } from '../events/webhooks';
import { JobAborts } from '../jobs/aborts';
import { jobJournals } from '../jobs/journal';
import type { ReflectionMode } from '../jobs/reflection';
import { resumeSettingsWaits } from '../jobs/settings-wait';
import { ProfileStore, SECRET_KEY_FILE } from '../llm/profile-store';
import { ProfileRegistry } from '../llm/profiles';
import { fileSecretBox, type SecretBox } from '../llm/secret-box';
import { sampleWith } from '../mcp/sampling';
import { McpServers } from '../mcp/servers';
import { McpTokenStore } from '../mcp/token-store';
import { resolveWorkspaceFolder } from '../tasks/create';
import { Scheduler } from '../tasks/scheduler';
import { TaskTitles } from '../tasks/task-titles';
import type { AgentTokens } from '../tools/a2a-send';
import { hiddenPaths, openSandbox, type SandboxChoice } from '../tools/os-sandbox';
import { loadPolicy } from '../tools/policy';
import { policyRule } from '../tools/policy-schema';
import { SSH_KEYS_FILE, type SshKeys } from '../tools/ssh-keys';
import { Worker, type WorkerOptions } from '../worker/worker';
import { AcceptedSettings, type SettingsText } from '../workspace/accepted-settings';
import { dbFile } from '../workspace/paths';
import { DEFAULT_CONCURRENCY } from './concurrency';
import type { AppContext } from './context';
import { AGENT_TOKENS_FILE, dataDirId, prepareDataDir } from './data-dir';
import { DisposableStore } from './disposable-store';
import { acquireHostLock } from './host-lock';
import { HostPresence } from './host-presence';
import { resumeUnblocked } from './mcp-operations';
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

/** How often the checkpoints' private repositories are collected, when no job runs. */
const CHECKPOINT_GC_MS = 60 * 60 * 1000;

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

/** What the host is made of before anything runs: each part may fail on its own, and none needs closing but the DB. */
interface Core {
  store: Store;
  sandbox: SandboxChoice;
  accepted: AcceptedSettings;
  mcp: McpServers;
  agentTokens: McpTokenStore;
  /** The keys people chose for SSH targets, sealed like the tokens. */
  sshKeys: McpTokenStore;
  profiles: ProfileRegistry;
  checkpoints: CheckpointService;
}

function openCore(options: MaestroOptions, dataDir: string, held: DisposableStore): Core {
  // Everything that can fail on its own comes before the DB is opened, so a failure leaves nothing open.
  // One box seals every secret of the data dir: the profiles' API keys and the MCP servers' tokens.
  const secretBox = options.secretBox ?? fileSecretBox(path.join(dataDir, SECRET_KEY_FILE));
  const profileStore = ProfileStore.inDataDir(dataDir, secretBox);
  const sandbox = options.sandbox ?? openSandbox(hiddenPaths([dataDir]));
  // Settings files the agent can write apply only in the version a person accepted: pieces, MCP servers, the policy.
  const accepted = new AcceptedSettings(dataDir);
  const mcp = new McpServers(McpTokenStore.inDataDir(dataDir, secretBox), {
    clientVersion: options.version,
    sandbox,
    read: accepted.inForce,
    switches: (workspace) => accepted.mcpSwitches(workspace),
    keep: () => {
      const { keepIdleMinutes, keepSessions } = loadSettings(dataDir).settings.mcpSessions;
      return { idleMs: keepIdleMinutes * 60_000, sessions: keepSessions };
    },
    // A server's sampling request goes to the task's profile (read when it comes: the registry is made below).
    sample: (name, params, signal) => {
      const profile = profiles.get(name ?? profiles.defaultName ?? '');
      if (!profile) throw new Error(`the LLM profile ${name ?? '(default)'} does not exist`);
      return sampleWith(profile, params, signal);
    },
    defaultProfile: () => profiles.defaultName,
    // A person signed in to a server (from Settings or a waiting task's card): its parked jobs go on.
    onSignedIn: (workspace) => resumeUnblocked(mcp, store, workspace),
    rule: (workspace, name) => {
      try {
        return policyRule(loadPolicy(workspace, accepted.inForce), name);
      } catch {
        // A policy file that cannot be read allows nothing by itself: the person is asked.
        return 'ask';
      }
    },
  });
  held.add('the MCP servers kept for parked jobs', () => mcp.closeKept());
  held.add('the MCP sign-ins waiting for a browser', () => mcp.signIns.close());
  // The remote agents' tokens (a2a_send) are kept as the MCP servers' are, in a file of their own.
  const agentTokens = new McpTokenStore(path.join(dataDir, AGENT_TOKENS_FILE), secretBox);
  const sshKeys = new McpTokenStore(path.join(dataDir, SSH_KEYS_FILE), secretBox);
  const profiles = ProfileRegistry.fromEnv(options.env ?? process.env, profileStore);
  const store = options.database?.store ?? Store.open(dbFile(dataDir), { nativeBinding: options.nativeBinding });
  held.add('the database', () => store.close());
  // A file of its own (not a test's store in memory, nor PostgreSQL): its checkpoints run on a thread of their own.
  const sqlite = store.sqlite;
  if (sqlite && !sqlite.memory) {
    const checkpointer = new WalCheckpointer(sqlite, { nativeBinding: options.nativeBinding });
    held.add('the WAL checkpoint thread', () => checkpointer.close());
  }
  // What servers ask the person lives as long as its call (in memory); the windows hear of it as it opens and closes.
  mcp.prompts.listen((prompt, open) =>
    store.emitTransient({ type: 'mcp_prompt.changed', taskId: prompt.taskId, jobId: prompt.jobId, prompt, open }),
  );
  const checkpoints = new CheckpointService({
    store,
    dataDir,
    settings: () => loadSettings(dataDir).settings.checkpoints,
    open: openSnapshotStore,
    // A broken policy file is the job's to report: here it leaves the commit to Settings.
    workspaceCommit: (workspace) => {
      try {
        return loadPolicy(workspace, accepted.inForce).workspaceCommit !== false;
      } catch {
        return true;
      }
    },
  });
  held.add('the checkpoints’ object worker', () => checkpoints.close());
  return { store, sandbox, accepted, mcp, agentTokens, sshKeys, profiles, checkpoints };
}

/**
 * The private repositories' unreferenced objects go when the host is idle: after a job, when none runs and the last
 * collection is an hour old.
 */
function checkpointCollector(store: Store, dataDir: string): () => void {
  let collectedAt = Date.now();
  return () => {
    if (Date.now() - collectedAt < CHECKPOINT_GC_MS || store.jobs.staleRunning(Number.MAX_SAFE_INTEGER).length > 0)
      return;
    collectedAt = Date.now();
    gcCheckpointStores(dataDir).catch((error) => console.error('checkpoint gc failed:', error));
  };
}

/** The engine the options name or make; by default the Piece engine, once an LLM profile exists. */
function engineFor(options: MaestroOptions, core: Core, pieces: PieceCatalog, dataDir: string): Engine | undefined {
  const { store, profiles, sandbox, accepted, agentTokens, sshKeys, checkpoints } = core;
  if (typeof options.engine === 'function') {
    return options.engine({
      store,
      profiles,
      pieces,
      sandbox,
      readSettings: accepted.inForce,
      agentTokens,
      sshKeys,
      checkpoints,
    });
  }
  if (options.engine) return options.engine;
  if (!profiles.defaultName) return undefined;
  return createEngine({
    journals: jobJournals(store, () => loadSettings(dataDir).settings.lessons),
    profiles,
    options: { sandbox, checkpoints },
    pieceExists: (id, ws) => pieces.get(id, ws) !== undefined,
    readSettings: accepted.inForce,
    agentTokens,
    sshKeys,
  });
}

/** A Worker for the engine, or null without one. */
function makeWorker(options: MaestroOptions, core: Core, ctx: AppContext): Worker | null {
  const engine = engineFor(options, core, ctx.pieces, ctx.dataDir);
  if (!engine) return null;
  const workerIdPrefix = `worker_${dataDirId(ctx.dataDir)}_`;
  const collectIfIdle = checkpointCollector(core.store, ctx.dataDir);
  return new Worker({
    // Jobs mostly wait on the model: several tasks (and a parent's subtasks) can run side by side.
    concurrency: DEFAULT_CONCURRENCY, // one per task at most: the per-task lock still holds
    // The host lock is held: every job left running was left by a host that is gone — on a database of its own. On a
    // shared one, only the jobs of this host's earlier life; the others' are theirs until their leases lapse.
    recoverAllOnStart: core.store.shared ? { workerIdPrefix } : true,
    workerId: `${workerIdPrefix}${randomBytes(6).toString('hex')}`,
    host: ctx.hostName,
    // On a shared database a job may name a profile only other hosts have: this one gives it back (P2.13) for them.
    ...(core.store.shared
      ? {
          folders: () => ctx.presence.folders(),
          serves: (job: JobRecord) => job.profile === null || core.profiles.has(job.profile),
        }
      : {}),
    // Read as each job ends: turning Reflection off in Settings applies to the next job that ends.
    reflectionMode: reflectionModeOf(options, core.store, ctx.dataDir),
    secrets: () => knownSecrets(core.profiles),
    ...options.worker,
    store: core.store,
    engine,
    pieces: ctx.pieces,
    aborts: ctx.aborts,
    mcp: core.mcp,
    dataDir: ctx.dataDir,
    afterSucceeded: async (job) => {
      await core.checkpoints.commitSucceeded(job);
      collectIfIdle();
    },
  });
}

/** MAESTRO_REFLECTION (off, failures, always): the host's own choice over the settings' (a test host, a CI box). */
function reflectionOverride(options: Pick<MaestroOptions, 'env'>): ReflectionMode | undefined {
  const value = (options.env ?? process.env).MAESTRO_REFLECTION;
  return REFLECTION_MODES.find((mode) => mode === value);
}

/**
 * When a job that ended is reflected on by itself (P2.08): MAESTRO_REFLECTION when the host's environment sets it,
 * else what the task's space says, else the settings (read as each job ends, so a change applies to the next one).
 */
export const reflectionModeOf =
  (options: Pick<MaestroOptions, 'env'>, store: Store, dataDir: string) =>
  (job: Pick<JobRecord, 'taskId'>): ReflectionMode =>
    reflectionOverride(options) ??
    spaceReflection(store, job.taskId) ??
    loadSettings(dataDir).settings.lessons.reflection;

/** What the task's space says about Reflection, if it says anything. */
function spaceReflection(store: Store, taskId: string): ReflectionMode | undefined {
  const spaceId = store.tasks.spaceId(taskId);
  return spaceId ? store.spaces.get(spaceId)?.reflection : undefined;
}

/** The API keys of the profiles that can be opened: what a Reflection redacts besides the shapes of keys. */
function knownSecrets(profiles: ProfileRegistry): string[] {
  const keys: string[] = [];
  for (const { name } of profiles.list().profiles) {
    try {
      const key = profiles.get(name)?.apiKey;
      if (key) keys.push(key);
    } catch {
      // A key that cannot be opened is not in anything this host sent or received.
    }
  }
  return keys;
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
