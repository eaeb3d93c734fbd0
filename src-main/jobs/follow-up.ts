// openFollowUp: a new job goes on with a task after its previous one, and takes with it what the person said to the
// previous job that it never got to read (its undelivered interjections). One command for the three ways a task
// goes on: a comment or Continue after the job ended, an answer to its question, messages left after it completed.
import { type Comment, isTerminal } from '../../src-shared/entities';
import type { NewComment } from '../db/repos/comments';
import type { JobRecord, NewJob } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { insertJob, postComment } from './job-writes';
import { JobCommandError } from './refusal';

/** The job to open (it opens Invoke UserSend; its ASK count goes on from the previous job's unless given). */
export type FollowUp = Omit<NewJob, 'pendingInvoke' | 'askCount'> & { askCount?: number };
/** The comment the new job opens with (the person's words, a handoff). */
export type Opening = Omit<NewComment, 'taskId' | 'jobId'>;

/**
 * The follow-up of `previous` (undefined: the task has no job yet). Refused with `job_not_terminal` while the
 * previous job has not ended: it still reads what is said to it.
 */
export function openFollowUp(
  store: Store,
  previous: JobRecord | undefined,
  next: FollowUp,
  opening: Opening,
): { job: JobRecord; comment: Comment } {
  return store.transact(() => {
    const now = previous && store.jobs.get(previous.id);
    if (now && !isTerminal(now.status)) {
      throw new JobCommandError(
        'openFollowUp',
        'job_not_terminal',
        `job ${now.id} is ${now.status}; a follow-up opens once it has ended`,
      );
    }
    const job = openAfter(store, now, next);
    return { job, comment: postComment(store, { ...opening, taskId: job.taskId, jobId: job.id }) };
  });
}

/** The follow-up without the check or an opening (answerAsk opens it before it ends the asking job). */
export function openAfter(store: Store, previous: JobRecord | undefined, next: FollowUp): JobRecord {
  const job = insertJob(store, { ...next, pendingInvoke: 'UserSend', askCount: next.askCount ?? previous?.askCount });
  if (previous) store.comments.moveUndelivered(previous.id, job.id);
  return job;
}
