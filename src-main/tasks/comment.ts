// POST /tasks/:id/comments: the task write gate of spec §1. What a comment does depends on the latest job's state,
// read and written in one IMMEDIATE transaction so the disposition matches the state it committed against; the job
// commands (jobs/person-comments.ts, jobs/follow-up.ts) write it.

import { assertNever } from '../../src-shared/assert-never';
import { commentGate } from '../../src-shared/comment-gate';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { toJob } from '../db/repos/jobs';
import { openFollowUp } from '../jobs/follow-up';
import { answerAsk, commentForNextRun, interject } from '../jobs/person-comments';
import type { TaskContext } from './context';
import { invalid } from './errors';
import { requireTask } from './queries';

export function addComment(ctx: TaskContext, input: OpParsedInput<'addComment'>): OpOutput<'addComment'> {
  const { store } = ctx;
  // Checked whatever the gate decides, so a wrong name is never silently ignored; used only by a new job.
  if (input.profile && !ctx.profiles.has(input.profile)) {
    throw invalid('profile', `no LLM profile named ${input.profile}`);
  }
  return store.transact(() => {
    const task = requireTask(ctx, input.taskId);
    const latest = store.jobs.latestForTask(task.id);
    const gate = commentGate(latest);
    // Every disposition but a first follow-up is about the latest job (the gate of no job is a follow-up).
    const latestId = latest?.id as string;
    // Another profile for this job only: the task keeps its own, the next follow-up picks again.
    const next = { pieceId: task.pieceId, profile: input.profile ?? task.profile };
    switch (gate.disposition) {
      case 'conflict':
        throw new MaestroError(
          'approval_pending',
          `a ${gate.waitsFor === 'tool_request' ? 'tool' : 'package'} request of this task waits for a decision; approve or deny it first`,
        );
      case 'interjection': {
        const { comment, job } = interject(store, latestId, input.body);
        return { comment, disposition: 'interjection', job: toJob(job) };
      }
      case 'reused_job': {
        const { comment, job } = commentForNextRun(store, latestId, input.body);
        return { comment, disposition: 'reused_job', job: toJob(job) };
      }
      case 'followup_job': {
        const { comment, job } = gate.answer
          ? answerAsk(store, latestId, { body: input.body, next })
          : openFollowUp(
              store,
              latest,
              {
                ...next,
                taskId: task.id,
                // A succeeded job is done with its movement; after failed/cancelled the follow-up resumes there.
                resumeMovement: latest && latest.status !== 'succeeded' ? latest.resumeMovement : null,
              },
              { author: 'user', kind: 'comment', body: input.body },
            );
        return { comment, disposition: 'followup_job', job: toJob(job) };
      }
      default:
        return assertNever(gate, 'gate');
    }
  });
}
