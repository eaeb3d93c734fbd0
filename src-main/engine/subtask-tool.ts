// create_subtask: the agent splits off a child task (its own task and job, in the same workspace). The parent keeps
// running; when it completes while children are open it waits for them, and their results wake it (Invoke Notify).
import { z } from 'zod';
import type { Task } from '../../src-shared/entities';
import { newId } from '../db/ids';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { insertTaskWithJob, titleFrom } from '../jobs/lifecycle';
import { fail, ok } from '../tools/outcome';
import type { AnyToolDef } from '../tools/types';

export const DEFAULT_SUBTASK_PIECE = 'default';

const Args = z.strictObject({
  instruction: z.string().min(1).describe('What the subtask must do, complete on its own.'),
  pieceId: z.string().optional().describe('The piece the subtask runs (default: "default").'),
  title: z.string().optional().describe('A short title for the subtask.'),
});

export function createSubtaskTool(
  store: Store,
  task: Task,
  job: JobRecord,
  pieceExists: (pieceId: string) => boolean,
): AnyToolDef {
  return {
    name: 'create_subtask',
    description:
      'Starts a subtask that runs on its own in this workspace. When you complete, this task waits for its subtasks and resumes with their results.',
    parameters: Args,
    readOnly: false,
    async execute(args: z.infer<typeof Args>) {
      const pieceId = args.pieceId ?? DEFAULT_SUBTASK_PIECE;
      if (!pieceExists(pieceId)) return fail(`no piece named ${pieceId}`);
      const created = insertTaskWithJob(store, {
        id: newId('task'),
        title: args.title?.trim() || titleFrom(args.instruction),
        instruction: args.instruction,
        pieceId,
        workspacePath: task.workspacePath,
        workspaceKind: store.tasks.workspaceKind(task.id) ?? 'persistent',
        spaceId: store.tasks.spaceId(task.id),
        profile: task.profile,
        parentTaskId: task.id,
        parentJobId: job.id,
        invoke: 'PodEvent',
        author: 'agent',
      });
      return ok(
        `Subtask "${created.task.title}" started (task ${created.task.id}, job ${created.job.id}, piece ${pieceId}).`,
      );
    },
  };
}

export const WAIT_FOR_SUBTASKS = 'wait_for_subtasks';

/** Answers the call when the job is woken by its last subtask: their results follow as the next message. */
export const SUBTASKS_DONE = 'The subtasks have finished; their results are in the next message.';

/**
 * wait_for_subtasks {}: parks the job `waiting_subtasks` until its open subtasks end (P4.42), then it goes on in the
 * same movement with their results — without completing first. With none open it answers at once.
 */
export function waitForSubtasksTool(store: Store, job: JobRecord): AnyToolDef {
  return {
    name: WAIT_FOR_SUBTASKS,
    description:
      'Waits until every subtask you started has finished, then continues here with their results. Use it when the rest of the work needs them.',
    parameters: z.strictObject({}),
    readOnly: false,
    async execute() {
      if (store.jobs.openChildCount(job.id) === 0) {
        return ok('No subtask is open; there is nothing to wait for.');
      }
      return { kind: 'wait', subtasks: true };
    },
  };
}
