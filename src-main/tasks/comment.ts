// POST /tasks/:id/comments: the task write gate of spec §1. What a comment does depends on the latest job's state,
// read and written in one IMMEDIATE transaction so the disposition matches the state it committed against.

import { assertNever } from '../../src-shared/assert-never';
import { commentGate } from '../../src-shared/comment-gate';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import type { JobRecord } from '../db/repos/jobs';
import { toJob } from '../db/repos/jobs';
import { changeJob, insertJob, postComment } from '../jobs/lifecycle';
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
    const post = (jobId: string, kind: 'interjection' | 'comment' | 'answer') =>
      postComment(store, { taskId: task.id, jobId, author: 'user', kind, body: input.body });
    switch (gate.disposition) {
      case 'conflict':
        throw new MaestroError(
          'approval_pending',
          `a ${gate.waitsFor === 'tool_request' ? 'tool' : 'package'} request of this task waits for a decision; approve or deny it first`,
        );
      case 'interjection': {
        const job = latest as JobRecord;
        const comment = post(job.id, 'interjection');
        const woken = gate.wake ? changeJob(store, job, 'queued') : undefined;
        return { comment, disposition: 'interjection', job: toJob(woken ?? job) };
      }
      case 'reused_job': {
        const job = latest as JobRecord;
        const comment = post(job.id, 'comment');
        return { comment, disposition: 'reused_job', job: toJob(job) };
      }
      case 'followup_job': {
        // A succeeded job is done with its movement; after failed/cancelled the follow-up resumes where it stopped.
        const resumeMovement = latest && latest.status !== 'succeeded' ? latest.resumeMovement : null;
        const job = insertJob(store, {
          taskId: task.id,
          pieceId: task.pieceId,
          // Another profile for this job only: the task keeps its own, the next follow-up picks again.
          profile: input.profile ?? task.profile,
          pendingInvoke: 'UserSend',
          resumeMovement: gate.answer ? latest?.resumeMovement : resumeMovement,
          askCount: latest?.askCount ?? 0,
          // The answered subtask goes on in the follow-up: its parent keeps waiting for it, not for the ASK job.
          parentJobId: gate.answer ? latest?.parentJobId : null,
        });
        // What the user said to the previous job that it never got to read goes on to this one.
        if (latest) store.comments.moveUndelivered(latest.id, job.id);
        // Only now, with the follow-up open, may the ASK job end (ending it first would wake a waiting parent).
        if (gate.answer) changeJob(store, latest as JobRecord, 'succeeded', { result: 'answered' });
        const comment = post(job.id, gate.answer ? 'answer' : 'comment');
        return { comment, disposition: 'followup_job', job: toJob(job) };
      }
      default:
        return assertNever(gate, 'gate');
    }
  });
}
