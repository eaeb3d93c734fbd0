// Markdown in the conversation: the built renderer (under its CSP) against a headless host whose model is scripted.
// The streamed text and the persisted result render GFM tables and highlighted code with a Copy button, and raw
// HTML from the model shows as text, never as markup.
import { expect, test } from './support/fixtures';
import { createInUi, openUi } from './support/ui';

const RESULT = [
  'Sizes checked. <img src=x onerror=alert(1)>',
  '',
  '| File | Bytes |',
  '| --- | ---: |',
  '| a.txt | 12 |',
  '| b.txt | 34 |',
  '',
  '```ts',
  'const total: number = 12 + 34;',
  '```',
  '',
  'See [the docs](https://example.com/docs).',
].join('\n');

const STREAMED = 'Counting the bytes:\n\n```bash\nwc -c a.txt b.txt\n```\n\nDone <b>soon</b>.';

test('P7.16 the result and the streamed text render as Markdown; raw HTML stays text', async ({
  page,
  context,
  llm,
  llmHost,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  llm.push({
    text: STREAMED,
    chunkDelayMs: 1000,
    toolCalls: [{ name: 'complete', arguments: { status: 'success', message: RESULT } }],
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Report the <b>sizes</b> of a.txt and b.txt.', title: 'Sizes' });

  // The user's own text: Markdown too, its HTML shown as written.
  const instruction = page.locator('[data-testid="chat-message"][data-kind="instruction"]');
  await expect(instruction.getByTestId('message-body')).toHaveText('Report the <b>sizes</b> of a.txt and b.txt.');
  await expect(instruction.locator('b')).toHaveCount(0);

  // While the job runs, the streamed fence is already a code block.
  const stream = page.getByTestId('job-stream');
  await expect(stream.locator('pre code.language-bash')).toContainText('wc -c a.txt b.txt');
  await expect(stream.getByTestId('md-copy')).toHaveText('Copy');

  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(stream).toHaveCount(0);
  const body = page.locator('[data-testid="chat-message"][data-kind="result"]').getByTestId('message-body');

  // The table.
  const table = body.locator('table');
  await expect(table).toHaveCount(1);
  await expect(table.locator('th')).toHaveText(['File', 'Bytes']);
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await expect(table.locator('tbody tr').first().locator('td')).toHaveText(['a.txt', '12']);

  // The code block: highlighted, with a Copy button that copies its text.
  const code = body.locator('pre > code');
  await expect(code).toHaveCount(1);
  await expect(code).toHaveText('const total: number = 12 + 34;');
  await expect(code).toHaveClass(/language-ts/);
  await expect(code.locator('.hljs-keyword').first()).toHaveText('const');
  const copy = body.getByTestId('md-copy');
  await expect(copy).toHaveText('Copy');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await copy.click();
  await expect(copy).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('const total: number = 12 + 34;');

  // The link opens outside the app.
  const link = body.getByRole('link', { name: 'the docs' });
  await expect(link).toHaveAttribute('href', 'https://example.com/docs');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noreferrer noopener');

  // The model's HTML is text: no element made from it, nothing ran.
  await expect(body).toContainText('Sizes checked. <img src=x onerror=alert(1)>');
  await expect(page.getByTestId('chat-feed').locator('img')).toHaveCount(0);
  expect(dialogs).toEqual([]);
  expect(cspViolations).toEqual([]);
  llm.expectEmpty();
});
