// The checkpoint operations of bridge-api.md (listCheckpoints, rewindTask, forkTask) and the task's files-changed
// view (getTaskChanges, revertTaskFile) and disk use (getCheckpointUsage): validated here, done by the checkpoint
// service (checkpoints/service.ts); forkTask is the DB's and the transcript's alone.
import fs from 'node:fs';
import path from 'node:path';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { checkpointDiskUsage } from '../checkpoints/housekeeping';
import { checkpointsDir } from '../checkpoints/locate';
import { revertFile, rewind } from '../checkpoints/rewind';
import type { CheckpointService } from '../checkpoints/service';
import { newId } from '../db/ids';
import { toJob } from '../db/repos/jobs';
import { openFollowUp } from '../jobs/follow-up';
import { insertTaskWithJob } from '../jobs/lifecycle';
import { taskTranscript } from '../jobs/transcripts';
import { runtimeDir } from '../workspace/paths';
import type { TaskContext } from './context';
import { invalid } from './errors';
import { requireTask } from './queries';

/** The operations' context: the app's always has the checkpoint service. */
type CheckpointContext = TaskContext & { checkpoints: CheckpointService };

export function listCheckpoints(ctx: CheckpointContext, { taskId }: { taskId: string }): OpOutput<'listCheckpoints'> {
  requireTask(ctx, taskId);
  return { ...ctx.checkpoints.list(taskId), state: ctx.checkpoints.state(taskId) };
}

export function getTaskChanges(
  ctx: CheckpointContext,
  { taskId }: { taskId: string },
): Promise<OpOutput<'getTaskChanges'>> {
  return ctx.checkpoints.changes(requireTask(ctx, taskId));
}

/** A workspace-relative path, `/`-separated, inside the workspace; anything else names the field. */
function workspaceRelative(given: string): string {
  const normal = path.posix.normalize(given.replaceAll('\\', '/'));
  if (path.posix.isAbsolute(normal) || normal === '..' || normal.startsWith('../') || normal === '.') {
    throw invalid('path', `${given} is not a path inside the task's workspace folder`);
  }
  return normal.replace(/\/$/, '');
}

export async function revertTaskFile(
  ctx: CheckpointContext,
  input: OpParsedInput<'revertTaskFile'>,
): Promise<OpOutput<'revertTaskFile'>> {
  const file = workspaceRelative(input.path);
  return revertFile(ctx.checkpoints, requireTask(ctx, input.taskId), file);
}

export async function rewindTask(
  ctx: CheckpointContext,
  input: OpParsedInput<'rewindTask'>,
): Promise<OpOutput<'rewindTask'>> {
  const task = requireTask(ctx, input.taskId);
  const done = await rewind(ctx.checkpoints, task, input.checkpointId, input.mode, input.dryRun ?? false);
  return { task: requireTask(ctx, task.id), ...done };
}

/**
 * A new task in the same folder whose conversation is the original's before Send #send (P9.21: at that Send's
 * Invoke), linked both ways (`forkedFrom`; the original lists its forks through it). With an instruction, its first
 * job goes on from that conversation at once; files are untouched.
 */
export function forkTask(ctx: CheckpointContext, input: OpParsedInput<'forkTask'>): OpOutput<'forkTask'> {
  const { store } = ctx;
  const original = requireTask(ctx, input.taskId);
  const sends = store.logEntries.invokes(original.id).filter((i) => i.kind === 'UserSend');
  const at = sends[input.send - 1];
  if (!at) {
    const count = sends.length === 1 ? '1 Send' : `${sends.length} Sends`;
    throw invalid('send', `task ${original.id} has ${count}; there is no Send #${input.send}`);
  }
  // The conversation as that Send found it, byte for byte: the fork's first request then shares the prefix the
  // original's had at that Send (spec 3.1–3.4), so a cache keeps serving it.
  const source = taskTranscript(store, runtimeDir(ctx.dataDir, original.id), original.id);
  const kept = source.kept(String(at.seq));
  if (kept === null && input.send > 1) {
    throw new MaestroError(
      'conflict',
      `the conversation before Send #${input.send} was not kept (it was sent before this version); fork from a later Send`,
    );
  }
  const id = newId('task');
  // Stored before the fork's job can be claimed: with the task's row, where the transcript lives in the database.
  const putKept = () => {
    if (kept) taskTranscript(store, runtimeDir(ctx.dataDir, id), id).replace(kept);
  };
  if (!store.shared) putKept();
  const title = `${original.title} (fork at Send #${input.send})`.slice(0, 200);
  const common = {
    id,
    title,
    pieceId: original.pieceId,
    workspacePath: original.workspacePath,
    workspaceKind: store.tasks.workspaceKind(original.id) ?? 'persistent',
    profile: original.profile,
    parentTaskId: null,
    spaceId: store.tasks.spaceId(original.id),
    forkedFrom: { taskId: original.id, send: input.send },
  } as const;
  try {
    return store.transact(() => {
      // Forked at Send #1 with an instruction: a task started over with it, as if it had been given first.
      if (input.send === 1 && input.instruction) {
        const { task, job } = insertTaskWithJob(store, {
          ...common,
          instruction: input.instruction,
          parentJobId: null,
          invoke: 'UserSend',
          author: 'user',
        });
        if (store.shared) putKept();
        return { task, job: toJob(job) };
      }
      store.tasks.insert({ ...common, instruction: original.instruction, createdAt: Date.now() });
      if (store.shared) putKept();
      const task = requireTask(ctx, id);
      store.publish({ type: 'task.created', taskId: id, jobId: null, task });
      if (!input.instruction) return { task };
      // The fork's first job goes on from the kept conversation: no job of its own came before it.
      const { job } = openFollowUp(
        store,
        undefined,
        { taskId: id, pieceId: task.pieceId, profile: task.profile },
        { author: 'user', kind: 'handoff', body: input.instruction },
      );
      return { task: requireTask(ctx, id), job: toJob(job) };
    });
  } catch (error) {
    fs.rmSync(runtimeDir(ctx.dataDir, id), { recursive: true, force: true });
    throw error;
  }
}

export async function getCheckpointUsage(ctx: CheckpointContext): Promise<OpOutput<'getCheckpointUsage'>> {
  return {
    bytes: checkpointDiskUsage(ctx.dataDir),
    tasks: ctx.store.checkpoints.tasksWithCheckpoints(),
    dir: checkpointsDir(ctx.dataDir),
  };
}
