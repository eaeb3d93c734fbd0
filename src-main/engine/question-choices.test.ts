import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { transcriptOf } from '../../test-support/transcript-lines';
import { parseTranscript } from './conversation';
import { CHOICE_MAX_CHARS, questionChoices } from './terminal-tools';

const ask = (message: string, choices: unknown) => call('complete', { status: 'needs_user_input', message, choices });
const userText = (req: RecordedRequest) =>
  ((req.body?.messages ?? []) as { role: string; content: string }[])
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');

describe('questionChoices', () => {
  it('keeps trimmed, non-blank strings of at most 80 characters, each once, the first 6; drops everything else', () => {
    const long = 'x'.repeat(CHOICE_MAX_CHARS + 1);
    expect(questionChoices([' Blue ', '', 'Red', 7, null, long, 'Blue', 'Green'])).toEqual(['Blue', 'Red', 'Green']);
    expect(questionChoices(['1', '2', '3', '4', '5', '6', '7'])).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(questionChoices('Blue or Red')).toEqual([]);
    expect(questionChoices(undefined)).toEqual([]);
  });
});

describe('a question with choices through the Worker and a scripted model', () => {
  it('P3.15 stores the sound choices on the question, tells the model the argument, and a chosen one is the answer', async () => {
    const h = await engineHarness([
      ask('Which colour?', ['Blue', '  Red  ', '', 42, 'y'.repeat(81)]),
      (req) => complete(userText(req).includes('The user answered: Red') ? 'painted red' : 'no answer seen'),
    ]);
    const { taskId, jobId } = h.createTask('Paint it');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'ask' });
    const question = h.maestro.invoke('getTask', { taskId }).comments.find((c) => c.kind === 'question');
    expect(question).toMatchObject({ body: 'Which colour?', choices: ['Blue', 'Red'] });
    // The chat's page carries them too.
    const recent = h.maestro.invoke('getTaskRecent', { taskId }).comments.find((c) => c.kind === 'question');
    expect(recent?.choices).toEqual(['Blue', 'Red']);

    const tools = (h.server.requests[0]?.body?.tools ?? []) as { function: { name: string; parameters: unknown } }[];
    const params = tools.find((t) => t.function.name === 'complete')?.function.parameters as {
      properties: Record<string, { type?: string; maxItems?: number; items?: { maxLength?: number } }>;
    };
    expect(params.properties.choices).toMatchObject({ type: 'array', maxItems: 6, items: { maxLength: 80 } });

    const answer = h.maestro.invoke('addComment', { taskId, body: 'Red' });
    expect(answer.comment).toMatchObject({ kind: 'answer', body: 'Red' });
    expect(answer.comment.choices).toBeUndefined();
    expect(await h.waitFor(answer.job?.id as string, SETTLED)).toMatchObject({
      status: 'succeeded',
      result: 'painted red',
    });
  });

  it('a question whose choices are all bad is still asked, without choices', async () => {
    const h = await engineHarness([ask('Go on?', 'yes or no')]);
    const { taskId, jobId } = h.createTask('Decide');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'ask' });
    const question = h.maestro.invoke('getTask', { taskId }).comments.find((c) => c.kind === 'question');
    expect(question?.body).toBe('Go on?');
    expect(question && 'choices' in question).toBe(false);
    // The model was told nothing was wrong: its complete was accepted.
    const lines = parseTranscript(transcriptOf(h.maestro, taskId).read());
    expect(lines.filter((l) => l.message.role === 'tool').map((l) => l.message.content)).toEqual([
      'Question sent to the user.',
    ]);
  });

  it('P1.10 P2.17 an answer given with another profile runs its job on that profile’s model; the task keeps its own', async () => {
    const h = await engineHarness([ask('Which colour?', ['Blue']), complete('done on the other model')]);
    h.maestro.invoke('saveProfile', { name: 'other', baseURL: h.server.baseURL, model: 'other-model' });
    const { taskId, jobId } = h.createTask('Paint it');
    await h.waitFor(jobId, SETTLED);
    const answer = h.maestro.invoke('addComment', { taskId, body: 'Blue', profile: 'other' });
    expect(answer.job?.profile).toBe('other');
    expect(await h.waitFor(answer.job?.id as string, SETTLED)).toMatchObject({ status: 'succeeded' });
    expect(h.server.requests.map((r) => r.body?.model)).toEqual(['scripted', 'other-model']);
    expect(h.maestro.invoke('getTask', { taskId }).task.profile).toBe('env');
  });
});
