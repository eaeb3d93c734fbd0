// The activity timeline (P7.18) in the browser against a headless host and the scripted model: a job that lists a
// folder and completes shows queued → running → succeeded with the time spent running, the finished tool and the
// live LlmCalls; a filter hides the tool rows; after a reload the persisted rows come back from listTaskEvents.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { complete, createInUi, openUi } from './support/ui';

const rows = (page: Page) => page.getByTestId('activity-row');
const jobStates = (page: Page) => page.locator('[data-testid="activity-row"][data-type="job.changed"]');
const toolRows = (page: Page) => page.locator('[data-testid="activity-row"][data-kind="tool"]');
const statusesOf = (page: Page) =>
  jobStates(page).evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.status));

test('P7.18 P10.10 the timeline lists the job states, the tool call and the LLM calls; a filter hides the tools', async ({
  page,
  llm,
  llmHost,
}) => {
  // The first reply is paced so that the job is seen running for a moment.
  llm.push(
    { text: 'Looking at the folder.', chunkDelayMs: 300, toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
    complete('success', 'Listed the folder.'),
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'List the workspace folder.', title: 'Activity' });

  await page.getByTestId('tab-activity').click();
  await expect(page.getByTestId('activity-timeline')).toBeVisible();
  await expect(page.getByTestId('chat-pane')).toBeHidden();
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });

  // Job lifecycle: each state once, the finished ones with the time spent in them.
  await expect.poll(() => statusesOf(page)).toEqual(['queued', 'running', 'succeeded']);
  const running = page.locator('[data-testid="activity-row"][data-type="job.changed"][data-status="running"]');
  await expect(running.getByTestId('activity-duration')).toHaveText(/^running \d+(\.\d)? (ms|s)$/);
  const succeeded = page.locator('[data-testid="activity-row"][data-type="job.changed"][data-status="succeeded"]');
  await expect(succeeded.getByTestId('activity-duration')).toHaveCount(0);
  await expect(succeeded.getByTestId('activity-detail')).toHaveText('Listed the folder.');

  // The tool that ran, with its outcome; the movement; the LlmCalls seen live, with attempt and tokens.
  const listDir = toolRows(page).filter({ hasText: 'list_dir' });
  await expect(listDir).toHaveCount(1);
  await expect(listDir).toHaveAttribute('data-status', 'ok');
  await expect(page.locator('[data-testid="activity-row"][data-type="movement.entered"]')).toHaveText(/Movement work/);
  const llmCalls = page.locator('[data-testid="activity-row"][data-type="LlmCallEnd"]');
  await expect(llmCalls).toHaveCount(2);
  await expect(llmCalls.first().getByTestId('activity-detail')).toContainText(/attempt 1 · ok · .* cached/);

  // The order: created and queued first, the tool before the end.
  const types = await rows(page).evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.type));
  expect(types.indexOf('job.changed')).toBeLessThan(types.indexOf('tool.finished'));
  expect(types.indexOf('tool.finished')).toBeLessThan(types.lastIndexOf('job.changed'));

  // The token chart: one bar per LlmCall from the usage the task loaded.
  await expect(page.getByTestId('activity-token-bar')).toHaveCount(2);

  // Filters: the tools go and come back; "Errors" alone shows nothing for a clean run.
  const toolCount = await toolRows(page).count();
  expect(toolCount).toBeGreaterThan(0);
  await page.getByTestId('activity-filter-tool').uncheck();
  await expect(toolRows(page)).toHaveCount(0);
  await expect.poll(() => statusesOf(page)).toEqual(['queued', 'running', 'succeeded']);
  await page.getByTestId('activity-filter-tool').check();
  await expect(toolRows(page)).toHaveCount(toolCount);
  for (const kind of ['job', 'llm', 'tool', 'approval', 'comment']) {
    await page.getByTestId(`activity-filter-${kind}`).uncheck();
  }
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByTestId('activity-empty')).toHaveText('Nothing matches the filter.');

  // After a reload the rows come back from listTaskEvents, the LlmCalls too (rebuilt from the log: they were sent
  // live, not stored as events), each once.
  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await page.getByTestId('task-item').filter({ hasText: 'Activity' }).click();
  await page.getByTestId('tab-activity').click();
  await expect.poll(() => statusesOf(page)).toEqual(['queued', 'running', 'succeeded']);
  await expect(toolRows(page).filter({ hasText: 'list_dir' })).toHaveCount(1);
  await expect(llmCalls).toHaveCount(2);
  await expect(llmCalls.first().getByTestId('activity-detail')).toContainText(/attempt 1 · ok · .* cached/);
  llm.expectEmpty();
});
