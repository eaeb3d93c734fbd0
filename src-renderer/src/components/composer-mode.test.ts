// The composer's mode follows the write gate: locked while a request waits, answer while asked, interjection while
// running, added while queued, follow-up when done; the open question is the waiting job's newest question.
import { describe, expect, it } from 'vitest';
import type { Comment, Job } from '../../../src-shared/entities';
import { jobFixture } from '../test-fixtures';
import { composerHint, composerMode, openQuestion, startsJob } from './composer-mode';

const job = (status: Job['status'], waitReason: Job['waitReason'] = null): Job =>
  jobFixture({ id: 'j1', taskId: 't', status, waitReason });
const none = { tool: 0, package: 0 };
const question = (id: string, jobId: string): Comment => ({
  id,
  taskId: 't',
  jobId,
  author: 'agent',
  kind: 'question',
  body: id,
  createdAt: '',
});

describe('composerMode', () => {
  it('says what sending does in each job state', () => {
    expect(composerMode(undefined, none)).toEqual({ kind: 'followup', first: true });
    expect(composerMode(job('running'), none).kind).toBe('interjection');
    expect(composerMode(job('waiting_subtasks'), none).kind).toBe('interjection');
    expect(composerMode(job('queued'), none).kind).toBe('queued');
    expect(composerMode(job('retry'), none).kind).toBe('queued');
    for (const s of ['succeeded', 'failed', 'cancelled'] as const) {
      expect(composerMode(job(s), none)).toEqual({ kind: 'followup', first: false });
    }
    expect(composerMode(job('waiting_human', 'browser'), none).kind).toBe('wake');
    expect(composerMode(job('waiting_human', 'mcp_auth_required'), none)).toEqual({
      kind: 'interjection',
      detail: 'mcp_auth_required',
    });
    const settings = composerMode(job('waiting_human', 'settings'), none);
    expect(settings).toEqual({ kind: 'interjection', detail: 'settings' });
    expect(composerHint(settings)).toContain('settings files are reviewed');
  });

  it('locks while a request waits, from the cards or from the job before they load', () => {
    expect(composerMode(job('running'), { tool: 1, package: 0 })).toEqual({ kind: 'locked', waitsFor: 'tool_request' });
    expect(composerMode(undefined, { tool: 0, package: 2 })).toEqual({ kind: 'locked', waitsFor: 'package_request' });
    expect(composerMode(job('waiting_human', 'tool_request'), none).kind).toBe('locked');
    expect(composerHint({ kind: 'locked', waitsFor: 'tool_request' })).toContain('Approve or deny');
  });

  it('answers the open question: the newest question of the asking job', () => {
    const asked = job('waiting_human', 'ask');
    const comments = [question('old', 'j0'), question('first', 'j1'), question('second', 'j1')];
    expect(composerMode(asked, none, comments)).toEqual({ kind: 'answer', question: comments[2] });
    expect(openQuestion(job('running'), comments)).toBeNull();
    expect(openQuestion(asked, [question('old', 'j0')])).toBeNull();
    expect(composerHint({ kind: 'answer', question: null })).toContain('answers it');
  });
});

describe('startsJob: where the composer offers another LLM profile', () => {
  it('only a follow-up or an answer starts a new job; a message that joins a job does not', () => {
    const kinds = (
      [
        { kind: 'followup', first: false },
        { kind: 'answer', question: null },
        { kind: 'interjection', detail: 'running' },
        { kind: 'wake' },
        { kind: 'queued' },
        { kind: 'locked', waitsFor: 'tool_request' },
      ] as const
    ).filter((m) => startsJob(m));
    expect(kinds.map((m) => m.kind)).toEqual(['followup', 'answer']);
  });
});
