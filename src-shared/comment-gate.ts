// The task write gate of spec §1: what a comment does, given the task's latest job. Main applies it to the job it
// commits against (tasks/comment.ts); the renderer shows it before the send (composer-mode.ts).
import { assertNever } from './assert-never';
import type { Job } from './entities';

export type CommentGate =
  /** Delivered to the running (or parked) job at its next step; `wake` re-queues a job parked on the person. */
  | { disposition: 'interjection'; wake: boolean }
  /** The job has not started yet: it reads the comment when it does. */
  | { disposition: 'reused_job' }
  /** A new job continues the task; `answer`: the comment answers the job's question (ASK). */
  | { disposition: 'followup_job'; answer: boolean }
  /** A tool or package request waits for a decision first. */
  | { disposition: 'conflict'; waitsFor: 'tool_request' | 'package_request' };

/** Where a comment goes; `job` undefined: the task has none yet. */
export function commentGate(job: Pick<Job, 'id' | 'status' | 'waitReason'> | undefined): CommentGate {
  if (!job) return { disposition: 'followup_job', answer: false };
  switch (job.status) {
    case 'running':
    case 'waiting_subtasks':
      return { disposition: 'interjection', wake: false };
    case 'queued':
    case 'retry':
      return { disposition: 'reused_job' };
    case 'succeeded':
    case 'failed':
    case 'cancelled':
      return { disposition: 'followup_job', answer: false };
    case 'waiting_human':
      switch (job.waitReason) {
        case 'tool_request':
        case 'package_request':
          return { disposition: 'conflict', waitsFor: job.waitReason };
        case 'ask':
          return { disposition: 'followup_job', answer: true };
        case 'browser':
          return { disposition: 'interjection', wake: true };
        case 'mcp_auth_required':
        case 'settings':
          return { disposition: 'interjection', wake: false };
        case null:
          // The DB's CHECK makes this impossible: a waiting job always says what it waits for.
          throw new Error(`job ${job.id} is waiting_human without a wait reason`);
        default:
          return assertNever(job.waitReason, 'wait reason');
      }
    default:
      return assertNever(job.status, 'job status');
  }
}
