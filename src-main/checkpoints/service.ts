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
import { keepConversation, keptConversation, putConversation } from '../engine/conversation-points';
import type { CheckpointSource, RunCheckpoints } from '../engine/job-run';
import { postComment } from '../jobs/lifecycle';
import { runtimeDir } from '../workspace/paths';
import { removeTaskIndex } from './housekeeping';
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
const fullRef = (ref: string) => `refs/maestro/${ref}`;

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

  /** The checkpoints of one job run (null when the task's workspace has none: said once in the task). */
  async forJob(task: Task, job: JobRecord): Promise<JobCheckpoints | null> {
    // Checkpoints never take a job down: a store that cannot even be opened leaves the job without them.
    const opened = await this.open(task).catch(
      (error: unknown): NoStore => ({ kind: 'off', reason: 'unusable', note: (error as Error).message }),
    );
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

  /** After tasks were deleted (`refs`: their checkpoints' refs, read before): their refs and indexes go too. */
  async forget(tasks: readonly { task: Task; refs: string[] }[]): Promise<void> {
    for (const { task, refs } of tasks) {
      const opened = await this.open(task).catch(() => null);
      this.states.delete(task.id);
      this.stores.delete(task.id);
      if (opened?.kind === 'store') await opened.store.dropRefs([...refs, fullRef(refOf(task.id, 'now'))]);
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
    return this.queued(taskId, () => snapshots.snapshot(refOf(taskId, 'now'), null));
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
    const dir = runtimeDir(this.o.dataDir, task.id);
    // The conversation to put back, found before anything is written (a refusal changes nothing).
    const transcript = conversation ? this.conversationOf(dir, target) : null;
    let restored: string[] = [];
    let removed: string[] = [];
    let edited: string[] = [];
    let undoCheckpointId: string | null = null;
    const opened = await this.open(task);
    if (opened.kind === 'off' && mode !== 'conversation') {
      throw new MaestroError('conflict', `task ${task.id} has no checkpoints: ${opened.note}`);
    }
    if (opened.kind === 'store') {
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
      // The state before, kept first (files and conversation): its `files` are what changed since the last
      // checkpoint (the person's edits).
      const before = await this.record(snapshots, task, jobId, 'rewind');
      if (!before) throw new Error('a rewind checkpoint is always kept');
      keepConversation(dir, `rewind-${before.id}`);
      undoCheckpointId = before.id;
      if (mode !== 'conversation') {
        edited = last ? before.files.map((f) => f.path) : [];
        ({ restored, removed } = await snapshots.restore(target.snapshot, before.snapshot));
      }
    }
    if (transcript !== null && !dryRun) this.rewindConversation(task, dir, target, transcript);
    return { restored, removed, undoCheckpointId, edited };
  }

  /** The transcript a conversation rewind to `target` puts back: the one its Send found, or a rewind's before. */
  private conversationOf(dir: string, target: StoredCheckpoint): string {
    const name = target.kind === 'rewind' ? `rewind-${target.id}` : String(target.invokeSeq);
    const kept = keptConversation(dir, name);
    if (kept === null) {
      throw new MaestroError(
        'conflict',
        target.kind === 'rewind'
          ? `checkpoint ${target.id} kept no conversation to go back to`
          : `the conversation before Send #${target.send} was not kept (it was sent before this version); rewind its files only`,
      );
    }
    return kept;
  }

  /**
   * Puts `transcript` back as the task's conversation and marks what it cut (folded in the chat), or takes back the
   * rewinds made since a rewind's checkpoint. Computed from kept copies: run again after a crash, it completes.
   */
  private rewindConversation(task: Task, dir: string, target: StoredCheckpoint, transcript: string): void {
    const { store } = this.o;
    putConversation(dir, transcript);
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
export class JobCheckpoints implements RunCheckpoints {
  private missedSaid = false;
  /** The call that ran since the last checkpoint and may have changed files: what the next checkpoint's are by. */
  private lastStep: string | null = null;
  /** Steps that may change files begun in this run: a capture taken at an earlier count is stale. */
  private steps = 0;
  /** A capture started when the model was asked (the state after the last step), for the step it may call. */
  private prefetched: { captured: Promise<Captured>; steps: number } | null = null;
  /** Captured trees being made checkpoints, in order, while the steps go on. */
  private sealing: Promise<unknown> = Promise.resolve();
  /** Checkpoints sealed whose refs are not written yet (flush writes them). */
  private readonly refs: { ref: string; commit: string }[] = [];
  /** The tree of the last checkpoint this run sealed: a capture with the same tree changed nothing. */
  private lastTree: string | null = null;

  constructor(
    private readonly service: CheckpointService,
    private readonly snapshots: SnapshotStore,
    private readonly task: Task,
    private readonly job: JobRecord,
  ) {}

  /** At an Invoke's start (Send #N): the workspace as the Send found it, recorded before the run goes on. */
  async atInvoke(): Promise<void> {
    this.lastStep = null;
    await this.take('send', { callId: null, changedBy: null }, null);
    await this.flush();
  }

  /**
   * When the model is asked: no step runs until it answers, so the workspace is captured now, while it generates —
   * the checkpoint before the step it may call then costs nothing more. (A person's edit made while the model
   * generates is caught by the next checkpoint instead.)
   */
  prefetch(): void {
    if (this.prefetched?.steps === this.steps) return;
    const captured = this.service.capture(this.snapshots, this.task.id);
    captured.catch(() => {}); // its failure is the step's to note, if the step uses it
    this.prefetched = { captured, steps: this.steps };
  }

  /** Before a step (tool call `callId`) that may change files. */
  async beforeStep(callId: string): Promise<void> {
    const fresh = this.prefetched?.steps === this.steps ? this.prefetched.captured : null;
    this.prefetched = null;
    const changedBy = this.lastStep;
    this.lastStep = callId;
    this.steps++;
    await this.take('step', { callId, changedBy }, fresh);
  }

  /** When the run ends (done, parked or failed): what its last step changed, recorded before the job's state is. */
  async atEnd(): Promise<void> {
    if (this.lastStep !== null) await this.take('step', { callId: null, changedBy: this.lastStep }, null);
    this.lastStep = null;
    await this.flush();
  }

  /**
   * Captures the workspace (or takes the prefetched capture): that is all the step waits for, and never longer than
   * the service's slow limit. The checkpoint is sealed behind it while the step runs.
   */
  private async take(
    kind: 'send' | 'step',
    step: { callId: string | null; changedBy: string | null },
    prefetched: Promise<Captured> | null,
  ): Promise<void> {
    const capture = prefetched ?? this.service.capture(this.snapshots, this.task.id);
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<'slow'>((resolve) => {
      timer = setTimeout(() => resolve('slow'), this.service.slowMs);
    });
    let captured: Captured;
    try {
      const outcome = await Promise.race([capture, slow]);
      if (outcome === 'slow') {
        this.missed('slow', `a checkpoint took longer than ${this.service.slowMs} ms and was not kept`);
        return;
      }
      captured = outcome;
    } catch (error) {
      this.missed('failed', `a checkpoint could not be taken: ${(error as Error).message}`);
      return;
    } finally {
      clearTimeout(timer);
    }
    if (kind === 'step' && captured.tree === this.lastTree) return;
    this.lastTree = captured.tree;
    this.sealing = this.sealing.then(() =>
      this.service
        .seal(this.snapshots, this.task, this.job.id, kind, step, captured)
        .then((kept) => {
          if (kept) this.refs.push({ ref: kept.ref, commit: kept.snapshot });
        })
        .catch((error: unknown) =>
          this.missed('failed', `a checkpoint could not be kept: ${(error as Error).message}`),
        ),
    );
  }

  /** Waits for the checkpoints being sealed, then writes their refs in one go. */
  private async flush(): Promise<void> {
    await this.sealing;
    const refs = this.refs.splice(0);
    await this.snapshots
      .keepRefs(refs)
      .catch((error: unknown) => this.missed('failed', `checkpoints could not be kept: ${(error as Error).message}`));
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
