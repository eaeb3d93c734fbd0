// The commands of a Reflection job (P2.08): queued after a job of a task's work ended (or on demand), and ended by the
// worker that ran it — succeeded with its lessons stored as `proposed` in the same transaction, or failed with the
// reason and nothing stored. A Reflection job never queues another, and is never the task's status; it posts no
// comment in the chat (its lessons' cards are what it shows there) and its states are in the task's Activity.
import { isTerminal, type JobStatus } from '../../src-shared/entities';
import type { ReflectionMode } from '../../src-shared/lessons';
import type { JobRecord } from '../db/repos/jobs';
import type { LessonRecord, NewLesson } from '../db/repos/lessons';
import type { Store } from '../db/store';
import { changeJob, insertJob } from './job-writes';
import { currentJob, heldJob, JobCommandError } from './refusal';

export type { ReflectionMode } from '../../src-shared/lessons';

/** Whether a job that just ended in `status` is reflected on by itself, in `mode`. */
export function reflectsOn(mode: ReflectionMode, job: Pick<JobRecord, 'kind' | 'status'>): boolean {
  if (job.kind !== 'run' || mode === 'off') return false;
  return job.status === 'failed' || (mode === 'always' && job.status === 'succeeded');
}

/**
 * A Reflection job of the task, queued; undefined when one is already queued or running (one look back at a time).
 * `asked`: a person asked for it, so the task's latest job must have ended (a look back at work still going on would
 * learn from half a record) and a Reflection already waiting is refused instead of passed over.
 */
export function queueReflection(store: Store, taskId: string, asked = false): JobRecord | undefined {
  return store.transact(() => {
    const latest = store.jobs.latestForTask(taskId);
    if (!latest)
      throw new JobCommandError('reflect', 'not_found', `reflect: task ${taskId} has no job to look back on`);
    if (asked && !isTerminal(latest.status)) {
      throw new JobCommandError(
        'reflect',
        'job_not_terminal',
        `reflect: the task's job ${latest.id} is ${latest.status}; a Reflection looks back once it has ended`,
      );
    }
    const open = store.jobs.reflectionsForTask(taskId).find((j) => !isTerminal(j.status));
    if (open) {
      if (asked)
        throw new JobCommandError(
          'reflect',
          'conflict',
          `reflect: Reflection job ${open.id} is already ${open.status}`,
        );
      return undefined;
    }
    return insertJob(store, {
      taskId,
      pieceId: latest.pieceId,
      profile: latest.profile,
      pendingInvoke: null,
      kind: 'reflection',
    });
  });
}

export type ReflectionOutcome =
  | { kind: 'lessons'; lessons: Omit<NewLesson, 'sourceJobId' | 'sourceTaskId'>[] }
  | { kind: 'failed'; reason: string };

/**
 * The Reflection job held by `workerId` ends: its lessons stored (each `proposed`, published) and the job succeeded,
 * or the job failed with the reason. Refused (`conflict`) when it is not held by that worker any more (cancelled).
 */
export function endReflection(
  store: Store,
  jobId: string,
  workerId: string,
  outcome: ReflectionOutcome,
): { job: JobRecord; lessons: LessonRecord[] } {
  return store.transact(() => {
    const job = heldJob(store, 'endReflection', jobId, workerId);
    if (job.kind !== 'reflection') {
      throw new JobCommandError('endReflection', 'conflict', `endReflection: job ${jobId} is not a Reflection job`);
    }
    if (outcome.kind === 'failed') {
      const failed = changeJob(store, job, 'failed', { error: outcome.reason, pendingInvoke: null }, workerId);
      return { job: must(failed, jobId), lessons: [] };
    }
    const lessons = outcome.lessons.map((l) => {
      const lesson = store.lessons.insert({ ...l, sourceTaskId: job.taskId, sourceJobId: job.id });
      store.publish({
        type: 'lesson.changed',
        taskId: job.taskId,
        jobId: job.id,
        lesson: { ...lesson, stale: false, contradictedBy: null },
      });
      return lesson;
    });
    const n = lessons.length;
    const result = n === 0 ? 'No lesson proposed.' : `${n} lesson${n === 1 ? '' : 's'} proposed.`;
    const done = changeJob(store, job, 'succeeded', { result, pendingInvoke: null }, workerId);
    return { job: must(done, jobId), lessons };
  });
}

function must(job: JobRecord | undefined, jobId: string): JobRecord {
  if (!job) throw new Error(`job ${jobId} changed inside its own transaction`);
  return job;
}

/** The status a Reflection job is in now (for the worker's log when its end was refused). */
export const reflectionStatus = (store: Store, jobId: string): JobStatus =>
  currentJob(store, 'reflectionStatus', jobId).status;
