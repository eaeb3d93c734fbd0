// create_subtask: the agent splits off a child task (its own task and job, in the same workspace). The parent keeps
// running; when it completes while children are open it waits for them, and their results wake it (Invoke Notify).
// The tree under the top task is bounded in depth and size (spend-limits.ts), counted in the DB, so a park, a
// restart or a subtask's own subtasks never reset the count.
import { z } from 'zod';
import { fail, ok } from '../tools/outcome';
import type { AnyToolDef } from '../tools/types';
import type { JobJournal } from './job-journal';
import { limitReached, type SpendLimits } from './spend-limits';

export const DEFAULT_SUBTASK_PIECE = 'default';

const Args = z.strictObject({
  instruction: z.string().min(1).describe('What the subtask must do, complete on its own.'),
  pieceId: z.string().optional().describe('The piece the subtask runs (default: "default").'),
  title: z.string().optional().describe('A short title for the subtask.'),
});

export function createSubtaskTool(
  journal: JobJournal,
  pieceExists: (pieceId: string) => boolean,
  limits: Pick<SpendLimits, 'subtaskDepth' | 'subtaskCount'>,
  policyFile: string,
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
      // Checked and created in one write transaction: two jobs of one tree cannot both take the last place.
      const draft = { instruction: args.instruction, pieceId, title: args.title?.trim() || undefined };
      const created = journal.spawnSubtask(draft, ({ depth, count }) => {
        const { subtaskDepth, subtaskCount } = limits;
        if (depth + 1 > subtaskDepth.value) {
          const what = `a subtask of this task would be ${depth + 1} levels below its top task`;
          return limitReached(what, subtaskDepth, policyFile);
        }
        if (count >= subtaskCount.value) {
          const what = `the tree under this task's top task already has ${count} subtasks`;
          return limitReached(what, subtaskCount, policyFile);
        }
        return null;
      });
      if (typeof created === 'string') return fail(created);
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
export function waitForSubtasksTool(journal: JobJournal): AnyToolDef {
  return {
    name: WAIT_FOR_SUBTASKS,
    description:
      'Waits until every subtask you started has finished, then continues here with their results. Use it when the rest of the work needs them.',
    parameters: z.strictObject({}),
    readOnly: false,
    async execute() {
      if (journal.openChildCount() === 0) {
        return ok('No subtask is open; there is nothing to wait for.');
      }
      return { kind: 'wait', subtasks: true };
    },
  };
}
