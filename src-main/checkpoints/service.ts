// The checkpoint service: takes a task's checkpoints while its jobs run (at each Send's start, before each step that
// may change files), records them in the DB with what changed since the previous one, and answers the operations on
// them (list, the task's changed files, revert a file, rewind, the workspace commit of a succeeded job). Git is the
// snapshot store's business (git-store.ts); this file decides when, records what, and keeps a failure from ever
// holding a step up or losing a file.
import type {
  Checkpoint,
  CheckpointFile,
  CheckpointSettings,
  CheckpointState,
  TaskFileChange,
} from '../../src-shared/checkpoints';
import type { CommentNotice, Task } from '../../src-shared/entities';
import { isTerminal } from '../../src-shared/entities';
import { MaestroError } from '../../src-shared/errors';
import { newId } from '../db/ids';
import type { StoredCheckpoint } from '../db/repos/checkpoints';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { postComment } from '../jobs/lifecycle';
import { removeTaskIndex } from './housekeeping';
import type { NoStore, OpenSnapshotStore, Snapshot, SnapshotStore } from './types';
import { commitJobChanges } from './workspace-commit';

/** A snapshot slower than this no longer holds the step up: the step goes on and the checkpoint is not kept. */
export const SLOW_SNAPSHOT_MS = 4000;

export interface CheckpointServiceOptions {
  store: Store;
  dataDir: string;
  /** The checkpoints' settings as they are now (settings.json; read at each job and operation). */
  settings: () => CheckpointSettings;
  open: OpenSnapshotStore;
  slowMs?: number;
}

type Opened = { kind: 'store'; store: SnapshotStore } | NoStore;

const refOf = (taskId: string, id: string) => `tasks/${taskId}/${id}`;
const fullRef = (ref: string) => `refs/maestro/${ref}`;

export class CheckpointService {
  /** Per task: whether its workspace has a store (learned at its first job or operation in this process). */
  private readonly states = new Map<string, CheckpointState>();
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
    const opened = await this.o.open({
      workspacePath: task.workspacePath,
      dataDir: this.o.dataDir,
      taskId: task.id,
      maxFileBytes: settings.maxFileBytes,
    });
    if (opened.kind === 'off') {
      this.states.set(task.id, { on: false, store: null, note: opened.note });
      return opened;
    }
    this.states.set(task.id, { on: true, store: opened.kind, note: null });
    return { kind: 'store', store: opened };
  }

  /** What listCheckpoints says about the task's checkpoints without opening anything. */
  state(taskId: string): CheckpointState {
    return this.states.get(taskId) ?? { on: this.o.settings().enabled, store: null, note: null };
  }

  /** The checkpoints of one job run (null when the task's workspace has none: said once in the task). */
  async forJob(task: Task, job: JobRecord): Promise<JobCheckpoints | null> {
    const opened = await this.open(task);
    if (opened.kind === 'off') {
      if (opened.reason !== 'disabled') this.sayOffOnce(task, job, opened);
      return null;
    }
    await this.prune(task.id, opened.store).catch((error) =>
      console.error(`task ${task.id}: old checkpoints were not removed:`, error),
    );
    return new JobCheckpoints(this, opened.store, task, job);
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
    await snapshots.dropRefs(gone.map((c) => fullRef(c.ref)));
    return gone.length;
  }

  /** After tasks were deleted (`checkpoints`: what they had): their refs and temporary indexes go too. */
  async forget(tasks: readonly { task: Task; refs: string[] }[]): Promise<void> {
    for (const { task, refs } of tasks) {
      this.states.delete(task.id);
      const opened = await this.open(task).catch(() => null);
      if (opened?.kind === 'store') await opened.store.dropRefs([...refs, fullRef(refOf(task.id, 'now'))].map(String));
      removeTaskIndex(this.o.dataDir, task.id);
    }
  }

  /** The refs of the task's checkpoints (to forget them once the task is deleted). */
  refsOf(taskId: string): string[] {
    return this.o.store.checkpoints.listForTask(taskId).map((c) => fullRef(c.ref));
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
    const { store } = this.o;
    store.transact(() => postComment(store, { taskId, jobId, author: 'system', kind: 'comment', body, notice }));
  }

  /**
   * Snapshots the task's workspace and records it as a checkpoint (`kind`) unless it changed nothing since the
   * previous one and is a step's. Queued behind the task's other snapshots. Throws what the store throws.
   */
  async record(
    snapshots: SnapshotStore,
    task: Task,
    jobId: string,
    kind: Checkpoint['kind'],
    step: { callId: string | null; changedBy: string | null } = { callId: null, changedBy: null },
    keep: () => boolean = () => true,
  ): Promise<StoredCheckpoint | null> {
    const run = async (): Promise<StoredCheckpoint | null> => {
      const { store } = this.o;
      const previous = store.checkpoints.latest(task.id);
      const id = newId('cp');
      const ref = refOf(task.id, id);
      const snap: Snapshot = await snapshots.snapshot(ref, previous?.snapshot ?? null);
      if (!keep() || (kind === 'step' && previous && snap.files.length === 0)) {
        await snapshots.dropRefs([fullRef(ref)]);
        return null;
      }
      const invokes = store.logEntries.invokes(task.id);
      const invokeSeq = invokes.at(-1)?.seq ?? 0;
      const send = invokes.filter((i) => i.kind === 'UserSend').length;
      // The task's first checkpoint is where its changes are counted from: nothing changed before it.
      const files = previous ? snap.files : [];
      return store.checkpoints.insert({
        id,
        taskId: task.id,
        jobId,
        send,
        invokeSeq,
        kind,
        ...step,
        snapshot: snap.commit,
        ref,
        files,
        skipped: snap.skipped,
      });
    };
    const queued = (this.queues.get(task.id) ?? Promise.resolve()).then(run);
    const tail = queued.catch(() => undefined);
    this.queues.set(task.id, tail);
    void tail.then(() => {
      if (this.queues.get(task.id) === tail) this.queues.delete(task.id);
    });
    return queued;
  }

  get slowMs(): number {
    return this.o.slowMs ?? SLOW_SNAPSHOT_MS;
  }

  get store(): Store {
    return this.o.store;
  }

  // --- operations ---------------------------------------------------------------------------------------------

  /** Every checkpoint of the task (every job's), oldest first, its conversation rewinds and whether it has any. */
  list(taskId: string): { checkpoints: Checkpoint[]; rewinds: ReturnType<Store['checkpoints']['rewinds']> } {
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
  private snapshotNow(snapshots: SnapshotStore, taskId: string): Promise<Snapshot> {
    const run = () => snapshots.snapshot(refOf(taskId, 'now'), null);
    const queued = (this.queues.get(taskId) ?? Promise.resolve()).then(run);
    this.queues.set(
      taskId,
      queued.catch(() => undefined),
    );
    return queued;
  }

  /**
   * Rewinds the task's files (to `checkpointId`'s snapshot) and/or its conversation (from that Send on, never
   * replayed again; P9.21: only at an Invoke, so a step's checkpoint is refused for the conversation). The files'
   * state before is checkpointed first (`rewind`), so a rewind can itself be undone; rewinding the conversation to
   * such a checkpoint takes back the conversation rewinds made since it.
   */
  async rewind(
    task: Task,
    checkpointId: string,
    mode: 'files' | 'conversation' | 'both',
    dryRun = false,
  ): Promise<{ restored: string[]; removed: string[]; undoCheckpointId: string | null; edited: string[] }> {
    const { store } = this.o;
    const target = store.checkpoints.get(checkpointId);
    if (!target || target.taskId !== task.id) {
      throw new MaestroError('not_found', `task ${task.id} has no checkpoint ${checkpointId}`);
    }
    const conversation = mode !== 'files';
    if (conversation && target.kind === 'step') {
      throw new MaestroError(
        'invalid_input',
        `checkpoint ${checkpointId} was taken before a step, inside an AgentTurn: a conversation is rewound only at a Send (an Invoke); rewind its files, or choose the checkpoint of Send #${target.send}`,
        [{ path: ['checkpointId'], message: 'a step checkpoint cannot rewind the conversation' }],
      );
    }
    this.requireIdle(task);
    let restored: string[] = [];
    let removed: string[] = [];
    let edited: string[] = [];
    let undoCheckpointId: string | null = null;
    if (mode !== 'conversation') {
      const opened = await this.open(task);
      if (opened.kind === 'off') {
        throw new MaestroError('conflict', `task ${task.id} has no checkpoints: ${opened.note}`);
      }
      const snapshots = opened.store;
      const last = store.checkpoints.latest(task.id);
      if (dryRun) {
        const now = (await this.snapshotNow(snapshots, task.id)).commit;
        ({ restored, removed } = restoring(await snapshots.changes(target.snapshot, now)));
        edited = last ? (await snapshots.changes(last.snapshot, now)).map((f) => f.path) : [];
        return { restored, removed, undoCheckpointId, edited };
      }
      const jobId = store.jobs.latestForTask(task.id)?.id;
      if (!jobId) throw new MaestroError('conflict', `task ${task.id} has no job to rewind`);
      // The state before, kept first: its `files` are what changed since the last checkpoint (the person's edits).
      const before = await this.record(snapshots, task, jobId, 'rewind');
      if (!before) throw new Error('a rewind checkpoint is always kept');
      undoCheckpointId = before.id;
      edited = last ? before.files.map((f) => f.path) : [];
      ({ restored, removed } = await snapshots.restore(target.snapshot, before.snapshot));
    }
    if (conversation && !dryRun) this.rewindConversation(task, target);
    return { restored, removed, undoCheckpointId, edited };
  }

  private rewindConversation(task: Task, target: StoredCheckpoint): void {
    const { store } = this.o;
    store.transact(() => {
      if (target.kind === 'rewind') {
        store.checkpoints.undoRewindsSince(task.id, Date.parse(target.createdAt));
        return;
      }
      // Everything from the Send's Invoke to the end of the log so far; what comes after is the new conversation.
      const untilSeq = Math.max(store.logEntries.lastSeq(task.id) ?? 0, target.invokeSeq) + 1;
      store.checkpoints.addRewind({
        taskId: task.id,
        send: Math.max(1, target.send),
        fromSeq: target.invokeSeq,
        untilSeq,
      });
    });
  }

  /** One file back as it was at the task's first checkpoint (created since: removed); the state before is kept. */
  async revertFile(
    task: Task,
    file: string,
  ): Promise<{ restored: string[]; removed: string[]; undoCheckpointId: string | null }> {
    const { store } = this.o;
    const first = store.checkpoints.listForTask(task.id)[0];
    if (!first) throw new MaestroError('conflict', `task ${task.id} has no checkpoint to revert to`);
    this.requireIdle(task);
    const opened = await this.open(task);
    if (opened.kind === 'off') throw new MaestroError('conflict', `task ${task.id} has no checkpoints: ${opened.note}`);
    const jobId = store.jobs.latestForTask(task.id)?.id as string;
    const before = await this.record(opened.store, task, jobId, 'rewind');
    if (!before) throw new Error('a rewind checkpoint is always kept');
    const changed = await opened.store.changes(first.snapshot, before.snapshot);
    const match = changed.find((c) => c.path === file || c.from === file);
    if (!match) {
      throw new MaestroError('invalid_input', `${file} did not change since the task started`, [
        { path: ['path'], message: 'not a file the task changed' },
      ]);
    }
    const paths = match.from ? [match.path, match.from] : [match.path];
    const result = await opened.store.restore(first.snapshot, before.snapshot, paths);
    return { ...result, undoCheckpointId: before.id };
  }

  private requireIdle(task: Task): void {
    const active = this.o.store.jobs.listForTask(task.id).find((j) => !isTerminal(j.status));
    if (active) {
      throw new MaestroError(
        'job_not_terminal',
        `job ${active.id} of task ${task.id} is ${active.status}; rewind once it has ended (or cancel it)`,
      );
    }
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
    if (!task || !start) return;
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

/** What restoring `target` over the workspace does, from the changes target → now. */
function restoring(changes: readonly CheckpointFile[]): { restored: string[]; removed: string[] } {
  const restored: string[] = [];
  const removed: string[] = [];
  for (const c of changes) {
    if (c.change === 'added') removed.push(c.path);
    else if (c.change === 'renamed') {
      removed.push(c.path);
      restored.push(c.from as string);
    } else restored.push(c.path);
  }
  return { restored: restored.sort(), removed: removed.sort() };
}

/** The files listed with diffs in the task's view, and the diff kept per file. */
const MAX_VIEW_FILES = 500;
const MAX_DIFF_CHARS = 200_000;
const cut = (diff: string) =>
  diff.length > MAX_DIFF_CHARS
    ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (${diff.length - MAX_DIFF_CHARS} more characters)`
    : diff;

export const toCheckpoint = ({ snapshot: _s, ref: _r, ...checkpoint }: StoredCheckpoint): Checkpoint => checkpoint;

/**
 * The checkpoints of one job run: one at the Send's start (when the job starts an Invoke), one before each step that
 * may change files. A slow or failed snapshot never holds the step up: the step goes on, the chat says so once.
 */
export class JobCheckpoints {
  private missedSaid = false;
  /** The call that ran since the last checkpoint and may have changed files: what the next checkpoint's are by. */
  private pending: string | null = null;

  constructor(
    private readonly service: CheckpointService,
    private readonly snapshots: SnapshotStore,
    private readonly task: Task,
    private readonly job: JobRecord,
  ) {}

  /** At an Invoke's start (Send #N): the workspace as the Send found it. */
  atInvoke(): Promise<void> {
    this.pending = null;
    return this.take('send', { callId: null, changedBy: null });
  }

  /** Before a step (tool call `callId`) that may change files. */
  async beforeStep(callId: string): Promise<void> {
    await this.take('step', { callId, changedBy: this.pending });
    this.pending = callId;
  }

  /** When the run ends (done, parked or failed): what its last step changed, so it is never counted as the next's. */
  async atEnd(): Promise<void> {
    if (this.pending === null) return;
    await this.take('step', { callId: null, changedBy: this.pending });
    this.pending = null;
  }

  private async take(kind: 'send' | 'step', step: { callId: string | null; changedBy: string | null }): Promise<void> {
    let late = false;
    const work = this.service.record(this.snapshots, this.task, this.job.id, kind, step, () => !late);
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), this.service.slowMs);
    });
    try {
      const outcome = await Promise.race([work.then(() => 'done' as const), slow]);
      if (outcome === 'slow') {
        late = true;
        this.missed('slow', `a checkpoint took longer than ${this.service.slowMs} ms and was not kept`);
      }
    } catch (error) {
      this.missed('failed', `a checkpoint could not be taken: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }

  private missed(reason: 'slow' | 'failed', detail: string): void {
    console.error(`task ${this.task.id}: ${detail}`);
    if (this.missedSaid) return;
    this.missedSaid = true;
    try {
      this.service.comment(this.task.id, this.job.id, `${detail}; the step went on.`, {
        code: 'checkpoint_missed',
        reason,
      });
    } catch (error) {
      console.error(`task ${this.task.id}: the missed checkpoint was not noted:`, error);
    }
  }
}
