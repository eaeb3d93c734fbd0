// Jobs that run: the built renderer against a headless host whose default LLM profile is the project's scripted
// OpenAI-compatible server. The streamed text shows while the job runs and gives way to the persisted result, the
// movements of a piece show as they are entered, and the usage panel (opened from its chip) counts the LlmCalls per Invoke.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { renameOpenTask } from './support/ui';

async function openUi(page: Page, host: HeadlessHost): Promise<void> {
  await page.goto(host.pageUrl);
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
}

async function createInUi(page: Page, fields: { instruction: string; title: string; pieceId: string }) {
  await page.getByTestId('new-task').click();
  await page.getByTestId('field-instruction').fill(fields.instruction);
  await expect(page.getByTestId('field-piece').locator(`option[value="${fields.pieceId}"]`)).toHaveCount(1);
  await page.getByTestId('field-piece').selectOption(fields.pieceId);
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  await renameOpenTask(page, fields.title);
}

const STREAMED = 'Queues that persist / survive the crash of the night / work resumes at dawn';

test('P4.20 P7.16 P9.17 the streamed text shows while the job runs, then the result replaces it', async ({
  page,
  llm,
  llmHost,
}) => {
  // The text comes in three chunks a second apart, then `complete` in the same reply.
  llm.push({
    text: STREAMED,
    chunkDelayMs: 1000,
    toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Wrote the haiku.' } }],
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Write a haiku about durable queues.', title: 'Haiku', pieceId: 'default' });

  // While the job runs: the partial text in the live item, the model writing, the movement entered.
  const stream = page.getByTestId('job-stream');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'running');
  await expect(stream.getByTestId('stream-text')).toContainText('Queues that persist');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'running');
  await expect(page.getByTestId('llm-state')).toHaveAttribute('data-state', /streaming|tools|idle/);
  await expect(page.getByTestId('movement')).toHaveText(['work']);

  // At the end: succeeded, the result comment once, and no transient item left beside it.
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const result = page.locator('[data-testid="chat-message"][data-kind="result"]');
  await expect(result).toHaveCount(1);
  await expect(result.getByTestId('message-body')).toHaveText('Wrote the haiku.');
  await expect(stream).toHaveCount(0);
  await expect(page.getByTestId('llm-state')).toHaveCount(0);
  await expect(page.getByTestId('chat-message')).toHaveCount(2);

  // Usage: one LlmCall in all, under the task's first (and only) "Send #1".
  const total = page.getByTestId('usage-total');
  await expect(total).toHaveAttribute('data-llm-calls', '1');
  await expect(total.getByTestId('usage-llm-calls')).toHaveText('1 model call');
  expect(Number(await total.getAttribute('data-prompt-tokens'))).toBeGreaterThan(0);
  expect(Number(await total.getAttribute('data-completion-tokens'))).toBeGreaterThan(0);
  await page.getByTestId('usage-chip').click();
  await expect(page.getByTestId('usage-invoke-header')).toHaveText(['Send #1']);

  // The panel agrees with the bridge's own accounting (P9.17).
  const taskId = await page.getByTestId('task-view').getAttribute('data-task-id');
  const usage = await llmHost.call<{ total: { llmCalls: number; promptTokens: number } }>(
    'GET',
    `/tasks/${taskId}/usage`,
  );
  expect(usage.body.total.llmCalls).toBe(1);
  expect(String(usage.body.total.promptTokens)).toBe(await total.getAttribute('data-prompt-tokens'));
  expect(llm.requests).toHaveLength(1);
  llm.expectEmpty();
});

test('P7.16 P9.19 a retried LlmCall drops its partial text; both calls stay inside one AgentTurn', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(
    { fault: 'cut', text: 'A first draft that will be cut off here', chunkDelayMs: 1500 },
    {
      text: 'The second attempt, complete.',
      chunkDelayMs: 1000,
      toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Answered on the second try.' } }],
    },
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Answer, even if the line drops.', title: 'Retry', pieceId: 'default' });

  const text = page.getByTestId('job-stream').getByTestId('stream-text');
  await expect(text).toContainText('A first draft');
  // The second attempt starts: the partial text is void and goes, the turn says it was asked again.
  await expect(page.getByTestId('stream-retried')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('A first draft')).toHaveCount(0);
  await expect(text).toContainText('The second attempt');
  await expect(page.getByTestId('stream-turn')).toHaveCount(1);

  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.locator('[data-testid="chat-message"][data-kind="result"]')).toHaveCount(1);
  await expect(page.getByTestId('job-stream')).toHaveCount(0);
  // Two LlmCalls, one AgentTurn: the retry did not open a turn of its own.
  await expect(page.getByTestId('usage-total')).toHaveAttribute('data-llm-calls', '2');
  await page.getByTestId('usage-chip').click();
  await expect(page.getByTestId('usage-invoke')).toContainText('1 turn');
  llm.expectEmpty();
});

test('P7.16 P9.18 plan-implement-review runs its movements in the UI and ends succeeded', async ({
  page,
  llm,
  llmHost,
}) => {
  // Each reply is paced so that every movement is on screen for a moment.
  llm.push(
    {
      text: 'The plan: add a notes file.',
      chunkDelayMs: 300,
      toolCalls: [{ name: 'transition', arguments: { next: 'implement', reason: 'Plan: add notes.txt' } }],
    },
    {
      text: 'Implemented.',
      chunkDelayMs: 300,
      toolCalls: [{ name: 'transition', arguments: { next: 'review', reason: 'Done' } }],
    },
    {
      text: 'Looks right.',
      chunkDelayMs: 300,
      toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Planned, implemented, reviewed.' } }],
    },
  );
  await openUi(page, llmHost);
  // Each movement may be current for less than Playwright's polling interval: record every current one as it shows.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { currentMovements: string[] }).currentMovements = seen;
    const note = () => {
      const text = document.querySelector('[data-testid="movement"][aria-current="step"]')?.textContent ?? '';
      const name = text.replace(/^\W+/, '');
      if (name && seen.at(-1) !== name) seen.push(name);
    };
    note();
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
  });
  await createInUi(page, {
    instruction: 'Add a notes file.',
    title: 'Notes',
    pieceId: 'plan-implement-review',
  });

  const current = page.locator('[data-testid="movement"][aria-current="step"]');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('movement')).toHaveText(['plan', 'implement', 'review']);
  await expect(current).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { currentMovements: string[] }).currentMovements)).toEqual([
    'plan',
    'implement',
    'review',
  ]);
  const result = page.locator('[data-testid="chat-message"][data-kind="result"]');
  await expect(result).toHaveCount(1);
  await expect(result.getByTestId('message-body')).toHaveText('Planned, implemented, reviewed.');
  await expect(page.getByTestId('job-stream')).toHaveCount(0);

  // One Invoke (the user's send) holding the three AgentTurns, one LlmCall each.
  await expect(page.getByTestId('usage-total')).toHaveAttribute('data-llm-calls', '3');
  await page.getByTestId('usage-chip').click();
  const invoke = page.getByTestId('usage-invoke');
  await expect(invoke).toHaveCount(1);
  await expect(invoke.getByTestId('usage-invoke-header')).toHaveText('Send #1');
  await expect(invoke).toContainText('3 turns');
  llm.expectEmpty();
});
