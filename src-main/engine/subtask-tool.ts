// create_subtask: the agent splits off a child task (its own task and job, in the same workspace). The parent keeps
// running; when it completes while children are open it waits for them, and their results wake it (Invoke Notify).
import { z } from 'zod';
import type { Task } from '../../src-shared/entities';
import { newId } from '../db/ids';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { insertTaskWithJob, titleFrom } from '../tasks/job-lifecycle';
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
      if (!pieceExists(pieceId)) return { kind: 'result', content: `Error: no piece named ${pieceId}` };
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
      return {
        kind: 'result',
        content: `Subtask "${created.task.title}" started (task ${created.task.id}, job ${created.job.id}, piece ${pieceId}).`,
      };
    },
  };
}
