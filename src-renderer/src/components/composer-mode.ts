// What sending from the composer will do, from the latest job's state and the requests waiting for a decision; the
// same table as the write gate (src-main/tasks/comment.ts), shown before the send rather than after it (P7.02, P7.21).
import type { Comment, Job } from '../../../src-shared/entities';

export type ComposerMode =
  | { kind: 'locked'; waitsFor: 'tool_request' | 'package_request' }
  | { kind: 'answer'; question: Comment | null }
  | { kind: 'interjection'; detail: 'running' | 'waiting_subtasks' | 'mcp_auth_required' }
  | { kind: 'wake' }
  | { kind: 'queued' }
  | { kind: 'followup'; first: boolean };

export interface PendingCounts {
  tool: number;
  package: number;
}

export function composerMode(
  job: Job | undefined,
  pending: PendingCounts,
  comments: readonly Comment[] = [],
): ComposerMode {
  if (pending.tool > 0) return { kind: 'locked', waitsFor: 'tool_request' };
  if (pending.package > 0) return { kind: 'locked', waitsFor: 'package_request' };
  if (!job) return { kind: 'followup', first: true };
  switch (job.status) {
    case 'running':
    case 'waiting_subtasks':
      return { kind: 'interjection', detail: job.status };
    case 'queued':
    case 'retry':
      return { kind: 'queued' };
    case 'succeeded':
    case 'failed':
    case 'cancelled':
      return { kind: 'followup', first: false };
    case 'waiting_human':
      switch (job.waitReason) {
        case 'tool_request':
        case 'package_request':
          // The job says so before the request itself has loaded.
          return { kind: 'locked', waitsFor: job.waitReason };
        case 'ask':
          return { kind: 'answer', question: openQuestion(job, comments) };
        case 'browser':
          return { kind: 'wake' };
        case 'mcp_auth_required':
          return { kind: 'interjection', detail: 'mcp_auth_required' };
        case null:
          return { kind: 'interjection', detail: 'running' };
        default: {
          const unknown: never = job.waitReason;
          throw new Error(`unknown wait reason ${String(unknown)}`);
        }
      }
    default: {
      const unknown: never = job.status;
      throw new Error(`unknown job status ${String(unknown)}`);
    }
  }
}

/** The question the waiting job asked: its newest `question` comment. */
export function openQuestion(job: Job | undefined, comments: readonly Comment[]): Comment | null {
  if (job?.status !== 'waiting_human' || job.waitReason !== 'ask') return null;
  for (let i = comments.length - 1; i >= 0; i--) {
    const c = comments[i] as Comment;
    if (c.kind === 'question' && c.jobId === job.id) return c;
  }
  return null;
}

export function composerHint(mode: ComposerMode): string {
  switch (mode.kind) {
    case 'locked':
      return mode.waitsFor === 'tool_request'
        ? 'A tool request waits for your decision above. Approve or deny it first; what you type here stays.'
        : 'A package request waits for your decision above. Approve or deny it first; what you type here stays.';
    case 'answer':
      return 'The agent asked a question: your next message answers it and the job goes on.';
    case 'interjection':
      return mode.detail === 'mcp_auth_required'
        ? 'The job waits for an MCP sign-in; sending adds a note it reads when it goes on.'
        : 'Sending interjects into the running job: the agent reads it at its next step.';
    case 'wake':
      return 'Sending wakes the job that waits on the browser.';
    case 'queued':
      return 'Sending adds to the queued job, before it starts.';
    case 'followup':
      return mode.first ? 'Sending starts a job.' : 'Sending starts a follow-up job that continues this task.';
    default: {
      const unknown: never = mode;
      throw new Error(`unknown composer mode ${JSON.stringify(unknown)}`);
    }
  }
}
