// A webhook's body carries the model's words through the untrusted-text renderer: a chat or a log that receives it
// shows the hidden characters as ⟨U+…⟩ instead of obeying them.
import { describe, expect, it } from 'vitest';
import type { Notice } from './attention';
import { payloadFor } from './webhook-payload';

describe('webhook payload', () => {
  it('P10.12 issue 21 bidi card: title and body leave with every hidden character escaped, visible text kept', () => {
    const notice: Notice = {
      taskId: 'task-1',
      jobId: 'job-1',
      kind: 'tool_request',
      title: 'Fix the\u200B build\nnow',
      body: '$ cat README.md \u202E\u2066; sh .x \u2069 \u2066# show the readme\u2069\u202C\n\x1b[2Kdone',
    };
    const payload = payloadFor(notice, '2026-12-02T00:00:00.000Z');
    expect(payload).toEqual({
      event: 'task.waiting',
      reason: 'tool_request',
      taskId: 'task-1',
      jobId: 'job-1',
      title: 'Fix the⟨U+200B⟩ build⟨U+000A⟩now',
      body: '$ cat README.md ⟨U+202E⟩⟨U+2066⟩; sh .x ⟨U+2069⟩ ⟨U+2066⟩# show the readme⟨U+2069⟩⟨U+202C⟩\n⟨U+001B⟩[2Kdone',
      ts: '2026-12-02T00:00:00.000Z',
    });
    expect(JSON.stringify(payload)).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B]/);
    expect(payload.body).not.toContain(String.fromCharCode(0x1b));
  });

  it('a plain title and body pass unchanged', () => {
    const notice: Notice = { taskId: 't', jobId: 'j', kind: 'succeeded', title: 'Done — 日本語', body: 'ok\nline 2' };
    expect(payloadFor(notice)).toMatchObject({ title: 'Done — 日本語', body: 'ok\nline 2' });
  });
});
