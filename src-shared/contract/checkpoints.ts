// Checkpoints, rewind and fork (bridge-api.md): a task's checkpoints (with its rewinds and whether it has any), the
// files the task changed with their diffs and "revert this file", rewind to a checkpoint (files, conversation or
// both), fork at Send #N, and the data dir's disk use for checkpoints.
import { z } from 'zod';
import { Checkpoint, CheckpointState, RewindMode, TaskFileChange, TaskRewind } from '../checkpoints';
import { Job, Task } from '../entities';
import { empty, Id, NonBlank, op, taskRef } from './operation';

/** What a rewind or a file revert did: files written back, files removed, and the checkpoint of the state before. */
const Restored = {
  restored: z.array(z.string()),
  removed: z.array(z.string()),
  /** The state before: itself a checkpoint to rewind to (null when files were not touched). */
  undoCheckpointId: z.string().nullable(),
};

export const checkpointOperations = {
  listCheckpoints: op({
    method: 'GET',
    path: '/tasks/:taskId/checkpoints',
    status: 200,
    input: taskRef,
    output: z.object({ checkpoints: z.array(Checkpoint), rewinds: z.array(TaskRewind), state: CheckpointState }),
  }),
  getTaskChanges: op({
    method: 'GET',
    path: '/tasks/:taskId/changes',
    status: 200,
    input: taskRef,
    output: z.object({ files: z.array(TaskFileChange), state: CheckpointState }),
  }),
  revertTaskFile: op({
    method: 'POST',
    path: '/tasks/:taskId/changes/revert',
    status: 200,
    input: z.object({ taskId: Id, path: z.string().min(1).max(4096) }).strict(),
    output: z.object(Restored),
  }),
  rewindTask: op({
    method: 'POST',
    path: '/tasks/:taskId/rewind',
    status: 200,
    input: z
      .object({
        taskId: Id,
        checkpointId: Id,
        mode: RewindMode,
        /** Only say what would be restored and removed (and what changed since the last checkpoint); write nothing. */
        dryRun: z.boolean().optional(),
      })
      .strict(),
    output: z.object({
      task: Task,
      ...Restored,
      /**
       * Files changed since the task's last checkpoint — not by the agent's steps: the person's own edits (or another
       * program's). A rewind overwrites those among `restored`/`removed`; the undo checkpoint keeps them.
       */
      edited: z.array(z.string()),
    }),
  }),
  forkTask: op({
    method: 'POST',
    path: '/tasks/:taskId/fork',
    status: 201,
    input: z.object({ taskId: Id, send: z.number().int().min(1), instruction: NonBlank(100_000).optional() }).strict(),
    output: z.object({ task: Task, job: Job.optional() }),
  }),
  getCheckpointUsage: op({
    method: 'GET',
    path: '/checkpoints/usage',
    status: 200,
    input: empty,
    output: z.object({ bytes: z.number().int(), tasks: z.number().int(), dir: z.string() }),
  }),
};
