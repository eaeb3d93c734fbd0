// What sending from the composer will do, from the latest job's state and the requests waiting for a decision: the
// write gate itself (src-shared/comment-gate.ts), shown before the send rather than after it (P7.02, P7.21).
import { assertNever } from '../../../src-shared/assert-never';
import { commentGate } from '../../../src-shared/comment-gate';
import type { Comment, Job } from '../../../src-shared/entities';
import { english, type Translate } from '../i18n/translate';

export type ComposerMode =
  | { kind: 'locked'; waitsFor: 'tool_request' | 'package_request' }
  | { kind: 'answer'; question: Comment | null }
  | { kind: 'interjection'; detail: 'running' | 'waiting_subtasks' | 'mcp_auth_required' | 'settings' }
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
  const gate = commentGate(job);
  switch (gate.disposition) {
    case 'conflict':
      // The job says so before the request itself has loaded.
      return { kind: 'locked', waitsFor: gate.waitsFor };
    case 'interjection':
      if (gate.wake) return { kind: 'wake' };
      return { kind: 'interjection', detail: parkedOn(job) ?? interjected(job) };
    case 'reused_job':
      return { kind: 'queued' };
    case 'followup_job':
      return gate.answer
        ? { kind: 'answer', question: openQuestion(job, comments) }
        : { kind: 'followup', first: !job };
    default:
      return assertNever(gate, 'comment gate');
  }
}

/** Whether sending in this mode starts a new job (a follow-up or an answer), which may run on another profile. */
export const startsJob = (mode: ComposerMode): boolean => mode.kind === 'followup' || mode.kind === 'answer';

/** What a job parked before its engine ran waits for: a comment is kept for it and does not wake it. */
const parkedOn = (job: Job | undefined): 'mcp_auth_required' | 'settings' | null =>
  job?.status !== 'waiting_human' ? null : job.waitReason === 'settings' ? 'settings' : 'mcp_auth_required';

const interjected = (job: Job | undefined): 'running' | 'waiting_subtasks' =>
  job?.status === 'waiting_subtasks' ? 'waiting_subtasks' : 'running';

/** The question the waiting job asked: its newest `question` comment. */
export function openQuestion(job: Job | undefined, comments: readonly Comment[]): Comment | null {
  if (job?.status !== 'waiting_human' || job.waitReason !== 'ask') return null;
  for (let i = comments.length - 1; i >= 0; i--) {
    const c = comments[i] as Comment;
    if (c.kind === 'question' && c.jobId === job.id) return c;
  }
  return null;
}

export function composerHint(mode: ComposerMode, t: Translate = english): string {
  switch (mode.kind) {
    case 'locked':
      return t(mode.waitsFor === 'tool_request' ? 'composer.hint.lockedTool' : 'composer.hint.lockedPackage');
    case 'answer':
      return t('composer.hint.answer');
    case 'interjection':
      return t(
        mode.detail === 'mcp_auth_required'
          ? 'composer.hint.mcp'
          : mode.detail === 'settings'
            ? 'composer.hint.settings'
            : 'composer.hint.interjection',
      );
    case 'wake':
      return t('composer.hint.wake');
    case 'queued':
      return t('composer.hint.queued');
    case 'followup':
      return t(mode.first ? 'composer.hint.first' : 'composer.hint.followup');
    default:
      return assertNever(mode, 'composer mode');
  }
}
