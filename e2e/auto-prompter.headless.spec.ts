// The Auto Prompter in the browser against a headless host and the scripted model: rules edited in Settings are
// checked by main (a bad rule is refused naming its field, nothing written), saved to the workspace's file, and a job
// that then calls a denied tool gets the Error result while the Activity tab shows the Policy Event (P8.04, P8.07).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

test('P8.04 P8.07 rules saved in Settings deny a tool call, and the Activity tab shows who denied what', async ({
  page,
  llm,
  llmHost,
}) => {
  const file = path.join(llmHost.workspace, '.maestro', 'auto-prompter.json');
  await openUi(page, llmHost);
  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('auto-prompter-settings');
  await expect(section).toContainText(llmHost.workspace);
  await expect(page.getByTestId('auto-prompter-enabled')).not.toBeChecked();
  await expect(page.getByTestId('auto-prompter-rules')).toHaveValue('[]');

  // Not JSON, then a rule main refuses: each says why, and no file is written.
  await page.getByTestId('auto-prompter-rules').fill('[{');
  await page.getByTestId('auto-prompter-save').click();
  await expect(page.getByTestId('auto-prompter-outcome')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('auto-prompter-outcome')).toContainText('not valid JSON');
  await page.getByTestId('auto-prompter-rules').fill('[{ "match": { "tool": "list_dir" }, "action": "approve_once" }]');
  await page.getByTestId('auto-prompter-save').click();
  await expect(page.getByTestId('auto-prompter-outcome')).toContainText('rules.0.match.args');
  expect(fs.existsSync(file)).toBe(false);

  const rules = [
    { id: 'no-listing', match: { tool: 'list_dir' }, action: 'deny', reason: 'Ask for file names instead.' },
  ];
  await page.getByTestId('auto-prompter-enabled').check();
  await page.getByTestId('auto-prompter-rules').fill(JSON.stringify(rules));
  await page.getByTestId('auto-prompter-save').click();
  await expect(page.getByTestId('auto-prompter-outcome')).toHaveAttribute('data-ok', 'true');
  expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ enabled: true, rules });
  await page.getByTestId('settings-close').click();

  llm.push({ toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] }, complete('success', 'Could not list.'));
  await createInUi(page, { instruction: 'List the workspace folder.', title: 'Denied listing' });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const answer = messagesOf(llm.requests[1] as (typeof llm.requests)[number]).at(-1);
  expect(textOf(answer)).toBe(
    'Error: the Auto Prompter denied this list_dir call (rule no-listing): Ask for file names instead.',
  );

  await page.getByTestId('tab-activity').click();
  const row = page.locator('[data-testid="activity-row"][data-type="policy.fired"]');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('activity-title')).toHaveText('Auto Prompter denied list_dir');
  await expect(row.getByTestId('activity-detail')).toHaveText('rule no-listing');
  // After a reload the row comes back from the stored events.
  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await page.getByTestId('task-item').filter({ hasText: 'Denied listing' }).click();
  await page.getByTestId('tab-activity').click();
  await expect(page.locator('[data-testid="activity-row"][data-type="policy.fired"]')).toHaveCount(1);
});
