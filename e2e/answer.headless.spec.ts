// The answer is an answer: while the model streams its `complete` call, the chat shows the message as Markdown in
// the agent's block (read from the arguments as they arrive), never the JSON; the persisted result then takes its
// place, shown once.
import { expect, test } from './support/fixtures';
import { createInUi, openUi } from './support/ui';

const ANSWER = [
  '## What I changed',
  '',
  '- `parse()` accepts "quoted" input',
  '- the tests cover it',
  '',
  'Everything passes.',
].join('\n');

const frame = { id: 'chatcmpl-e2e', object: 'chat.completion.chunk', created: 0, model: 'scripted-e2e' };
const toolDelta = (args: string, first: boolean) => ({
  ...frame,
  choices: [
    {
      index: 0,
      delta: {
        tool_calls: [
          {
            index: 0,
            ...(first ? { id: 'call_answer', type: 'function' } : {}),
            function: first ? { name: 'complete', arguments: args } : { arguments: args },
          },
        ],
      },
      finish_reason: null,
    },
  ],
});

test('P7.16 a streamed complete shows its message as Markdown while it streams, never as JSON', async ({
  page,
  llm,
  llmHost,
}) => {
  const json = JSON.stringify({ status: 'success', message: ANSWER });
  // Cut right after the heading and the first list item, then wait: the rest comes seconds later.
  const cuts = [json.indexOf('changed') + 9, json.indexOf('input') + 6];
  const pieces = [json.slice(0, cuts[0]), json.slice(cuts[0], cuts[1]), json.slice(cuts[1])];
  llm.push({
    chunkDelayMs: 1500,
    raw: {
      sse: [
        ...pieces.map((p, i) => toolDelta(p, i === 0)),
        { ...frame, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        'data: [DONE]',
      ],
    },
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Fix the parser and tell me what you changed.', title: 'Parser' });

  const stream = page.getByTestId('job-stream');
  const feed = page.getByTestId('chat-feed');
  // The heading while the arguments are still arriving: the job is running, the list not complete yet.
  await expect(stream.locator('h2')).toHaveText('What I changed');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'running');
  await expect(stream.locator('li').first()).toContainText('parse() accepts "quoted" input');
  await expect(stream.locator('li code')).toHaveText('parse()');
  await expect(feed).not.toContainText('{"');
  await expect(feed).not.toContainText('"message"');
  await expect(stream.getByTestId('stream-tool')).toHaveCount(0);

  await expect(stream.locator('li')).toHaveCount(2, { timeout: 10_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  // The persisted result replaces the streamed answer: the heading is there once.
  await expect(stream).toHaveCount(0);
  const result = page.locator('[data-testid="chat-message"][data-kind="result"]');
  await expect(result.locator('h2')).toHaveText('What I changed');
  await expect(feed.locator('h2')).toHaveCount(1);
  await expect(feed).not.toContainText('{"');
});
