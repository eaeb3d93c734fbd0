// POST /tasks/:id/continue: a new job after a terminal one, carrying a handoff and continuedFromJobId (the engine
// replays the transcript for it).
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { isTerminal } from '../../src-shared/entities';
import { MaestroError } from '../../src-shared/errors';
import { toJob } from '../db/repos/jobs';
import { openFollowUp } from '../jobs/follow-up';
import type { TaskContext } from './context';
import { invalid } from './errors';
import { requireTask } from './queries';

export const DEFAULT_HANDOFF = 'Continue the task from where the previous job left off.';

export function continueTask(ctx: TaskContext, input: OpParsedInput<'continueTask'>): OpOutput<'continueTask'> {
  const { store } = ctx;
  const task = requireTask(ctx, input.taskId);
  const pieceId = input.pieceId ?? task.pieceId;
  if (!ctx.pieces.get(pieceId, task.workspacePath)) throw invalid('pieceId', `no piece named ${pieceId}`);
  return store.transact(() => {
    const previous = store.jobs.latestForTask(task.id);
    if (!previous || !isTerminal(previous.status)) {
      throw new MaestroError(
        'job_not_terminal',
        previous
          ? `the latest job ${previous.id} is ${previous.status}; continue once it has ended`
          : 'the task has no job to continue from',
      );
    }
    if (pieceId !== task.pieceId) store.tasks.setPiece(task.id, pieceId);
    const { job } = openFollowUp(
      store,
      previous,
      { taskId: task.id, pieceId, profile: task.profile, continuedFromJobId: previous.id },
      {
        author: 'user',
        kind: 'handoff',
        body: input.instruction ?? DEFAULT_HANDOFF,
        // Without words of the person's, the body is the model's instruction: the chat words it from the notice.
        ...(input.instruction === undefined ? { notice: { code: 'continued' as const } } : {}),
      },
    );
    return { job: toJob(job) };
  });
}
