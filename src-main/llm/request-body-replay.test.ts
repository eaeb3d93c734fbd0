import { describe, expect, it } from 'vitest';
import { ProviderKind as Kinds, type ProviderKind } from '../../src-shared/contract/profiles';
import { complete, engineHarness, SETTLED, transition } from '../../test-support/engine-harness';
import { transcriptOf } from '../../test-support/transcript-lines';
import type { TaskTranscript } from '../engine/transcripts';

// The extras as DeepSeek (api-docs.deepseek.com/guides/thinking_mode), OpenRouter (openrouter.ai/docs, reasoning
// tokens) and Gemini (ai.google.dev/gemini-api/docs/openai: extra_content.google.thought_signature) send them.
const EXTRAS = {
  reasoning_content: 'Plan first, then implement.',
  reasoning_details: [{ type: 'reasoning.text', text: 'Plan first.', signature: 'sig-1', format: 'unknown' }],
  extra_content: { google: { thought_signature: 'TXNnU2ln' } },
};
const CALL_EXTRA = { google: { thought_signature: 'Q2FsbFNpZw==' } };

const SENT: Record<'reasoning_content' | 'reasoning_details' | 'extra_content', readonly ProviderKind[]> = {
  reasoning_content: ['deepseek', 'moonshot'],
  reasoning_details: ['openrouter'],
  extra_content: ['gemini'],
};

/** Adds the extras to the transcript's assistant message that made the transition call, as the model sent them. */
function addExtras(transcript: TaskTranscript): void {
  const lines = transcript.read().split('\n');
  const edited = lines.map((raw) => {
    if (!raw.includes('"transition"')) return raw;
    const line = JSON.parse(raw) as { message: { role: string; tool_calls?: Record<string, unknown>[] } };
    if (line.message.role !== 'assistant') return raw;
    const calls = (line.message.tool_calls ?? []).map((c) => ({ ...c, extra_content: CALL_EXTRA }));
    return JSON.stringify({ ...line, message: { ...line.message, ...EXTRAS, tool_calls: calls } });
  });
  expect(edited).not.toEqual(lines);
  transcript.replace(edited.join('\n'));
}

describe('request body per kind across a Continue and a movement transition', () => {
  it.each(Kinds.options)('%s', async (kind) => {
    const h = await engineHarness([transition('implement'), complete('v1'), transition('review'), complete('v2')]);
    h.maestro.invoke('saveProfile', { name: 'k', kind, baseURL: h.server.baseURL, model: 'scripted' });
    const { taskId, jobId } = h.createTask('Build it', { pieceId: 'plan-implement-review', profile: 'k' });
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    addExtras(transcriptOf(h.maestro, taskId));
    const { job } = h.maestro.invoke('continueTask', { taskId, instruction: 'Now add tests.' });
    expect((await h.waitFor(job.id, SETTLED)).status).toBe('succeeded');

    const [replayed, afterTransition] = h.server.requests.slice(2).map((r) => r.rawBody);
    for (const [field, kinds] of Object.entries(SENT)) {
      expect(replayed?.includes(`"${field}":`), field).toBe(kinds.includes(kind));
    }
    expect(replayed?.includes('Q2FsbFNpZw==')).toBe(kind === 'gemini');
    if (kind === 'gemini') {
      expect(replayed).toContain(`"extra_content":${JSON.stringify(EXTRAS.extra_content)}`);
      expect(replayed).toContain(`"extra_content":${JSON.stringify(CALL_EXTRA)}}]`);
    }
    if (kind === 'deepseek' || kind === 'moonshot')
      expect(replayed).toContain(`"reasoning_content":"${EXTRAS.reasoning_content}"`);
    if (kind === 'openrouter') {
      expect(replayed).toContain(`"reasoning_details":${JSON.stringify(EXTRAS.reasoning_details)}`);
    }
    const prefix = (raw = '') => raw.slice(0, raw.indexOf('],"tools"'));
    expect(afterTransition?.startsWith(prefix(replayed))).toBe(true);
  });
});
