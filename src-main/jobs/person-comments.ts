// What a person's comment does to the job it reaches (the write gate of spec §1, src-shared/comment-gate.ts): an
// interjection to a running or parked job (waking one parked on the person's browser step), a comment a queued job
// reads when it starts, an answer to a job's question. Each command checks the job is in a state it applies to.
import { commentGate } from '../../src-shared/comment-gate';
import type { Comment } from '../../src-shared/entities';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { type FollowUp, openAfter } from './follow-up';
import { changeJob, postComment } from './job-writes';
import { currentJob, JobCommandError } from './refusal';
import { wakeParked } from './wake';

const refuse = (command: string, job: JobRecord, wants: string) =>
  new JobCommandError(
    command,
    'job_not_waiting',
    `job ${job.id} is ${job.status}${job.waitReason ? ` (${job.waitReason})` : ''}, not ${wants}`,
  );

/** The person's words reach the job at its next step; a job parked on their browser step goes on. */
export function interject(store: Store, jobId: string, body: string): { comment: Comment; job: JobRecord } {
  return store.transact(() => {
    const job = currentJob(store, 'interject', jobId);
    const gate = commentGate(job);
    if (gate.disposition !== 'interjection') throw refuse('interject', job, 'running or parked on the person');
    const comment = postComment(store, { taskId: job.taskId, jobId, author: 'user', kind: 'interjection', body });
    return { comment, job: gate.wake ? wakeParked(store, jobId, 'browser_replied') : job };
  });
}

/** A comment to a job that has not started (or waits to retry): it reads it when it runs. */
export function commentForNextRun(store: Store, jobId: string, body: string): { comment: Comment; job: JobRecord } {
  return store.transact(() => {
    const job = currentJob(store, 'commentForNextRun', jobId);
    if (commentGate(job).disposition !== 'reused_job') throw refuse('commentForNextRun', job, 'queued or retrying');
    const comment = postComment(store, { taskId: job.taskId, jobId, author: 'user', kind: 'comment', body });
    return { comment, job };
  });
}

/**
 * The person answers the job's question (ASK): a follow-up job resumes its movement with the answer, and the asking
 * job ends `succeeded` (only once the follow-up is open: ending it first would wake a parent waiting for it). The
 * follow-up of an answered subtask keeps its parent, which waits for it instead.
 */
export function answerAsk(
  store: Store,
  jobId: string,
  answer: { body: string; next: Pick<FollowUp, 'pieceId' | 'profile'> },
): { comment: Comment; job: JobRecord } {
  return store.transact(() => {
    const asking = currentJob(store, 'answerAsk', jobId);
    if (asking.status !== 'waiting_human' || asking.waitReason !== 'ask') throw refuse('answerAsk', asking, 'asking');
    const job = openAfter(store, asking, {
      ...answer.next,
      taskId: asking.taskId,
      resumeMovement: asking.resumeMovement,
      parentJobId: asking.parentJobId,
    });
    changeJob(store, asking, 'succeeded', { result: 'answered' });
    const comment = postComment(store, {
      taskId: job.taskId,
      jobId: job.id,
      author: 'user',
      kind: 'answer',
      body: answer.body,
    });
    return { comment, job };
  });
}
