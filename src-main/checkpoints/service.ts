// The checkpoint service: opens a task's snapshot store (once), hands each job run its checkpoints
// (run-checkpoints.ts), records a captured tree as a checkpoint with what changed since the previous one, lists them
// and the task's changed files, makes the workspace commit of a succeeded job, and keeps tasks within Settings'
// limits. Rewind and revert are rewind.ts's; git is the snapshot store's (git-store.ts).
import type {
  Checkpoint,
  CheckpointSettings,
  CheckpointState,
  TaskFileChange,
  TaskRewind,
} from '../../src-shared/checkpoints';
import type { CommentNotice, Task } from '../../src-shared/entities';
import { newId } from '../db/ids';
import type { StoredCheckpoint } from '../db/repos/checkpoints';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import type { CheckpointSource } from '../engine/job-run';
import { postNote } from '../jobs/lifecycle';
import { removeTaskIndex } from './housekeeping';
import { objectWriter } from './object-writer';
import { JobCheckpoints } from './run-checkpoints';
import { maestroRef } from './snapshot';
import type { Captured, NoStore, OpenSnapshotStore, Snapshot, SnapshotStore } from './types';
import { commitJobChanges } from './workspace-commit';

/** A snapshot slower than this no longer holds the step up: the step goes on and the checkpoint is not kept. */
export const SLOW_SNAPSHOT_MS = 4000;

export interface CheckpointServiceOptions {
  store: Store;
  dataDir: string;
  /** The checkpoints' settings as they are now (settings.json; read at each job and operation). */
  settings: () => CheckpointSettings;
  open: OpenSnapshotStore;
  /** Whether a workspace lets a succeeded job commit (its accepted policy's `workspace_commit`; default yes). */
  workspaceCommit?: (workspacePath: string) => boolean;
  slowMs?: number;
}

type Opened = { kind: 'store'; store: SnapshotStore } | NoStore;

const refOf = (taskId: string, id: string) => `tasks/${taskId}/${id}`;

export class CheckpointService implements CheckpointSource {
  /** Per task: whether its workspace has a store (learned at its first job or operation in this process). */
  private readonly states = new Map<string, CheckpointState>();
  /** The tasks' open stores (a task's folder never changes), with the size limit each was opened with. */
  private readonly stores = new Map<string, { store: SnapshotStore; maxFileBytes: number }>();
  /** One snapshot at a time per task: they share the task's temporary index. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly o: CheckpointServiceOptions) {}

  /** The task's store, or why there is none; the first answer per task is remembered (and said once in the chat). */
  async open(task: Task): Promise<Opened> {
    const settings = this.o.settings();
    if (!settings.enabled) {
      const off: NoStore = { kind: 'off', reason: 'disabled', note: 'checkpoints are turned off in Settings' };
      this.states.set(task.id, { on: false, store: null, note: off.note });
      return off;
    }
    // The store of a task's folder is found once (git's version, the repository) while its size limit holds.
    const cached = this.stores.get(task.id);
    if (cached && cached.maxFileBytes === settings.maxFileBytes) return { kind: 'store', store: cached.store };
    const opened = await this.o.open({
      workspacePath: task.workspacePath,
      dataDir: this.o.dataDir,
      taskId: task.id,
      maxFileBytes: settings.maxFileBytes,
    });
    if (opened.kind === 'off') {
      this.stores.delete(task.id);
      this.states.set(task.id, { on: false, store: null, note: opened.note });
      return opened;
    }
    this.stores.set(task.id, { store: opened, maxFileBytes: settings.maxFileBytes });
    this.states.set(task.id, { on: true, store: opened.kind, note: null });
    return { kind: 'store', store: opened };
  }

  /** What listCheckpoints says about the task's checkpoints without opening anything. */
  state(taskId: string): CheckpointState {
    return this.states.get(taskId) ?? { on: this.o.settings().enabled, store: null, note: null };
  }

  /**
   * The checkpoints of one job run (null when checkpoints are off in Settings). The task's store is opened while the
   * run goes on to ask the model: its git processes are no step's wait unless the model answers first. A workspace
   * with no store (said once in the task) leaves the run without checkpoints.
   */
  async forJob(task: Task, job: JobRecord): Promise<JobCheckpoints | null> {
    // Checkpoints never take a job down: a store that cannot even be opened leaves the job without them.
    const opening = this.open(task).catch(
      (error: unknown): NoStore => ({ kind: 'off', reason: 'unusable', note: (error as Error).message }),
    );
    if (!this.o.settings().enabled) return null;
    const snapshots = opening.then(async (opened) => {
      if (opened.kind === 'off') {
        if (opened.reason !== 'disabled') this.sayOffOnce(task, job, opened);
        return null;
      }
      await this.prune(task.id, opened.store).catch((error) =>
        console.error(`task ${task.id}: old checkpoints were not removed:`, error),
      );
      return opened.store;
    });
    return new JobCheckpoints(this, snapshots, task, job);
  }

  /**
   * Keeps the task within Settings' limits: checkpoints older than keepDays go, then the oldest beyond keepPerTask —
   * steps before Sends, and never the task's first (the start every "files changed" is counted from).
   */
  async prune(taskId: string, snapshots: SnapshotStore, now = Date.now()): Promise<number> {
    const { store } = this.o;
    const { keepPerTask, keepDays } = this.o.settings();
    const all = store.checkpoints.listForTask(taskId);
    const [first, ...rest] = all;
    if (!first) return 0;
    const cutoff = keepDays > 0 ? now - keepDays * 24 * 3600 * 1000 : -Infinity;
    const old = rest.filter((c) => Date.parse(c.createdAt) < cutoff);
    const young = rest.filter((c) => Date.parse(c.createdAt) >= cutoff);
    const excess = Math.max(0, young.length + 1 - keepPerTask);
    const byAge = [...young.filter((c) => c.kind === 'step'), ...young.filter((c) => c.kind !== 'step')];
    const gone = [...old, ...byAge.slice(0, excess)];
    if (gone.length === 0) return 0;
    store.transact(() => {
      for (const c of gone) store.checkpoints.remove(c.id);
    });
    await snapshots.dropRefs(gone.map((c) => maestroRef(c.ref)));
    return gone.length;
  }

  /**
   * After tasks were deleted (`refs`: their checkpoints' refs, read before): their refs and indexes go too.
   * `storeGone`: the task's folder and its store were removed with it, so there are no refs left to drop.
   */
  async forget(tasks: readonly { task: Task; refs: string[]; storeGone?: boolean }[]): Promise<void> {
    for (const { task, refs, storeGone } of tasks) {
      const opened = storeGone ? null : await this.open(task).catch(() => null);
      this.states.delete(task.id);
      this.stores.delete(task.id);
      if (opened?.kind === 'store') await opened.store.dropRefs([...refs, maestroRef(refOf(task.id, 'now'))]);
      removeTaskIndex(this.o.dataDir, task.id);
    }
  }

  /** The refs of the task's checkpoints (to forget them once the task is deleted). */
  refsOf(taskId: string): string[] {
    return this.o.store.checkpoints.listForTask(taskId).map((c) => maestroRef(c.ref));
  }

  private sayOffOnce(task: Task, job: JobRecord, off: NoStore): void {
    const said = this.o.store.comments.listForTask(task.id).some((c) => c.notice?.code === 'checkpoints_off');
    if (said) return;
    const reason = off.reason === 'disabled' ? 'unusable' : off.reason;
    this.comment(task.id, job.id, `Checkpoints are off for this task: ${off.note}.`, {
      code: 'checkpoints_off',
      reason,
    });
  }

  comment(taskId: string, jobId: string, body: string, notice: CommentNotice): void {
    postNote(this.o.store, { taskId, jobId, body, notice });
  }

  /** Runs `op` after the task's other snapshot work (they share the task's temporary index). */
  private queued<T>(taskId: string, op: () => Promise<T>): Promise<T> {
    const queued = (this.queues.get(taskId) ?? Promise.resolve()).then(op);
    const tail = queued.catch(() => undefined);
    this.queues.set(taskId, tail);
    void tail.then(() => {
      if (this.queues.get(taskId) === tail) this.queues.delete(taskId);
    });
    return queued;
  }

  /** The workspace's tree now, queued behind the task's other snapshot work. */
  capture(snapshots: SnapshotStore, taskId: string): Promise<Captured> {
    return this.queued(taskId, () => snapshots.capture());
  }

  /**
   * A captured tree as a checkpoint (`kind`), with what changed since the task's previous one; none when it is a
   * step's that changed nothing (or `keep` says no). Throws what the store throws.
   */
  async seal(
    snapshots: SnapshotStore,
    task: Task,
    jobId: string,
    kind: Checkpoint['kind'],
    step: { callId: string | null; changedBy: string | null },
    captured: Captured,
  ): Promise<StoredCheckpoint | null> {
    const { store } = this.o;
    const previous = store.checkpoints.latest(task.id);
    const id = newId('cp');
    const ref = refOf(task.id, id);
    const snap: Snapshot = await snapshots.seal(captured, ref, previous?.snapshot ?? null);
    // A step's that changed nothing: its commit is left unreferenced (no ref was written for it).
    if (kind === 'step' && previous && snap.files.length === 0) return null;
    const invokes = store.logEntries.invokes(task.id);
    return store.checkpoints.insert({
      id,
      taskId: task.id,
      jobId,
      send: invokes.filter((i) => i.kind === 'UserSend').length,
      invokeSeq: invokes.at(-1)?.seq ?? 0,
      kind,
      ...step,
      snapshot: snap.commit,
      ref,
      // The task's first checkpoint is where its changes are counted from: nothing changed before it.
      files: previous ? snap.files : [],
      skipped: snap.skipped,
    });
  }

  /** capture() then seal(), waited for: a rewind's checkpoint of the state before it. */
  async record(snapshots: SnapshotStore, task: Task, jobId: string, kind: Checkpoint['kind']) {
    const captured = await this.capture(snapshots, task.id);
    const kept = await this.seal(snapshots, task, jobId, kind, { callId: null, changedBy: null }, captured);
    if (kept) await snapshots.keepRefs([{ ref: kept.ref, commit: kept.snapshot }]);
    return kept;
  }

  /** Stops the process's object worker (the host is closing; a capture still running is finished here). */
  close(): Promise<void> {
    return objectWriter().close();
  }

  get store(): Store {
    return this.o.store;
  }

  get dataDir(): string {
    return this.o.dataDir;
  }

  get slowMs(): number {
    return this.o.slowMs ?? SLOW_SNAPSHOT_MS;
  }

  // --- operations ---------------------------------------------------------------------------------------------

  /** Every checkpoint of the task (every job's), oldest first, its conversation rewinds and whether it has any. */
  list(taskId: string): { checkpoints: Checkpoint[]; rewinds: TaskRewind[] } {
    const checkpoints = this.o.store.checkpoints.listForTask(taskId).map(toCheckpoint);
    return { checkpoints, rewinds: this.o.store.checkpoints.rewinds(taskId) };
  }

  /** Every file the task changed since its first checkpoint (to the workspace as it is now), with its diff. */
  async changes(task: Task): Promise<{ files: TaskFileChange[]; state: CheckpointState }> {
    const first = this.o.store.checkpoints.listForTask(task.id)[0];
    const opened = await this.open(task);
    if (opened.kind === 'off' || !first) return { files: [], state: this.state(task.id) };
    const snapshots = opened.store;
    const now = (await this.snapshotNow(snapshots, task.id)).commit;
    const changed = await snapshots.changes(first.snapshot, now);
    const files: TaskFileChange[] = [];
    for (const file of changed.slice(0, MAX_VIEW_FILES)) {
      const diff = await snapshots.fileDiff(first.snapshot, now, file.path);
      files.push({ ...file, ...diff, diff: cut(diff.diff) });
    }
    return { files, state: this.state(task.id) };
  }

  /** A snapshot of now that is no checkpoint (under the task's `now` ref, replaced each time). */
  snapshotNow(snapshots: SnapshotStore, taskId: string): Promise<Snapshot> {
    return this.queued(taskId, () => snapshots.snapshot(refOf(taskId, 'now'), null));
  }

  /**
   * P2.21: a succeeded job commits the files it changed (from its first checkpoint to now) when the workspace is a
   * git repository and Settings allow it; the chat says what was committed or why not.
   */
  async commitSucceeded(job: JobRecord): Promise<void> {
    const { store } = this.o;
    if (!this.o.settings().commitOnSuccess) return;
    const task = store.tasks.get(job.taskId);
    const start = store.checkpoints.listForJob(job.id)[0];
    if (!task || !start || this.o.workspaceCommit?.(task.workspacePath) === false) return;
    const opened = await this.open(task);
    if (opened.kind === 'off' || opened.store.kind !== 'git') return;
    const end = await this.snapshotNow(opened.store, task.id);
    const made = await commitJobChanges({
      workspacePath: task.workspacePath,
      startTree: start.snapshot,
      endTree: end.commit,
      leftOut: [...start.skipped, ...end.skipped].map((s) => s.path),
      title: task.title,
      result: job.result,
      taskId: task.id,
      jobId: job.id,
    });
    if (made.kind === 'committed') {
      store.checkpoints.setWorkspaceCommit(start.id, made.short);
      this.comment(task.id, job.id, `Committed ${made.short} on ${made.branch}: ${made.files.join(', ')}`, {
        code: 'workspace_commit',
        hash: made.short,
        files: made.files.length,
        skipped: null,
      });
    } else if (made.reason !== 'nothing_changed' && made.reason !== 'not_a_repository') {
      this.comment(task.id, job.id, `The changes were not committed: ${made.detail}`, {
        code: 'workspace_commit',
        hash: null,
        files: 0,
        skipped: made.reason,
      });
    }
  }
}

/** The files listed with diffs in the task's view, and the diff kept per file. */
const MAX_VIEW_FILES = 500;
const MAX_DIFF_CHARS = 200_000;
const cut = (diff: string) =>
  diff.length > MAX_DIFF_CHARS
    ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (${diff.length - MAX_DIFF_CHARS} more characters)`
    : diff;

export const toCheckpoint = ({ snapshot: _s, ref: _r, ...checkpoint }: StoredCheckpoint): Checkpoint => checkpoint;
