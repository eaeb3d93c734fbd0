// Rewind and revert (bridge-api.md): the task's files back to a checkpoint (the state before kept first, as a
// checkpoint of its own, so any rewind can be undone), its conversation back to what a Send found (P9.21: only at an
// Invoke), or one file back to the task's start. Refused while a job of the task is active; a refusal changes nothing.
import type { CheckpointFile } from '../../src-shared/checkpoints';
import type { Task } from '../../src-shared/entities';
import { isTerminal } from '../../src-shared/entities';
import { MaestroError } from '../../src-shared/errors';
import type { StoredCheckpoint } from '../db/repos/checkpoints';
import type { Store } from '../db/store';
import type { TaskTranscript } from '../engine/transcripts';
import { taskTranscript } from '../jobs/transcripts';
import { runtimeDir } from '../workspace/paths';
import type { CheckpointService } from './service';

/**
 * Rewinds the task's files (to `checkpointId`'s snapshot) and/or its conversation (from that Send on, never
 * replayed again; P9.21: only at an Invoke, so a step's checkpoint is refused for the conversation). The files'
 * state before is checkpointed first (`rewind`), so a rewind can itself be undone; rewinding the conversation to
 * such a checkpoint takes back the conversation rewinds made since it.
 */
export async function rewind(
  service: CheckpointService,
  task: Task,
  checkpointId: string,
  mode: 'files' | 'conversation' | 'both',
  dryRun = false,
): Promise<{ restored: string[]; removed: string[]; undoCheckpointId: string | null; edited: string[] }> {
  const { store } = service;
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
  requireIdle(service.store, task);
  const kept = taskTranscript(store, runtimeDir(service.dataDir, task.id), task.id);
  // The conversation to put back, found before anything is written (a refusal changes nothing).
  const transcript = conversation ? conversationOf(kept, target) : null;
  let restored: string[] = [];
  let removed: string[] = [];
  let edited: string[] = [];
  let undoCheckpointId: string | null = null;
  const opened = await service.open(task);
  if (opened.kind === 'off' && mode !== 'conversation') {
    throw new MaestroError('conflict', `task ${task.id} has no checkpoints: ${opened.note}`);
  }
  if (opened.kind === 'store') {
    const snapshots = opened.store;
    const last = store.checkpoints.latest(task.id);
    if (dryRun) {
      const now = (await service.snapshotNow(snapshots, task.id)).commit;
      ({ restored, removed } = restoring(await snapshots.changes(target.snapshot, now)));
      edited = last ? (await snapshots.changes(last.snapshot, now)).map((f) => f.path) : [];
      return { restored, removed, undoCheckpointId, edited };
    }
    const jobId = store.jobs.latestForTask(task.id)?.id;
    if (!jobId) throw new MaestroError('conflict', `task ${task.id} has no job to rewind`);
    // The state before, kept first (files and conversation): its `files` are what changed since the last
    // checkpoint (the person's edits).
    const before = await service.record(snapshots, task, jobId, 'rewind');
    if (!before) throw new Error('a rewind checkpoint is always kept');
    await kept.keep(`rewind-${before.id}`);
    undoCheckpointId = before.id;
    if (mode !== 'conversation') {
      edited = last ? before.files.map((f) => f.path) : [];
      ({ restored, removed } = await snapshots.restore(target.snapshot, before.snapshot));
    }
  }
  if (transcript !== null && !dryRun) rewindConversation(service.store, task, kept, target, transcript);
  return { restored, removed, undoCheckpointId, edited };
}

/** The transcript a conversation rewind to `target` puts back: the one its Send found, or a rewind's before. */
function conversationOf(transcript: TaskTranscript, target: StoredCheckpoint): string {
  const name = target.kind === 'rewind' ? `rewind-${target.id}` : String(target.invokeSeq);
  const kept = transcript.kept(name);
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
function rewindConversation(
  store: Store,
  task: Task,
  kept: TaskTranscript,
  target: StoredCheckpoint,
  transcript: string,
): void {
  kept.replace(transcript);
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
export async function revertFile(
  service: CheckpointService,
  task: Task,
  file: string,
): Promise<{ restored: string[]; removed: string[]; undoCheckpointId: string | null }> {
  const { store } = service;
  const first = store.checkpoints.listForTask(task.id)[0];
  if (!first) throw new MaestroError('conflict', `task ${task.id} has no checkpoint to revert to`);
  requireIdle(service.store, task);
  const opened = await service.open(task);
  if (opened.kind === 'off') throw new MaestroError('conflict', `task ${task.id} has no checkpoints: ${opened.note}`);
  const jobId = store.jobs.latestForTask(task.id)?.id as string;
  const before = await service.record(opened.store, task, jobId, 'rewind');
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

function requireIdle(store: Store, task: Task): void {
  const active = store.jobs.listForTask(task.id).find((j) => !isTerminal(j.status));
  if (active) {
    throw new MaestroError(
      'job_not_terminal',
      `job ${active.id} of task ${task.id} is ${active.status}; rewind once it has ended (or cancel it)`,
    );
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
