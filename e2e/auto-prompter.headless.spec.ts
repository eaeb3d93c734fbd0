// The Auto Prompter in the browser against a headless host and the scripted model: rules edited in Settings' form are
// checked (a bad rule is refused under its field, nothing written), saved to the workspace's file, and a job
// that then calls a denied tool gets the Error result while the Activity tab shows the Policy Event (P8.04, P8.07).
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

// The rules are typed field by field in the form before the job runs: twice the default time.
test.setTimeout(120_000);

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
  await expect(section.getByTestId('ap-no-rules')).toBeVisible();

  // A rule main's schema refuses (approve_once without an argument test): named under its field, no file written.
  await section.getByTestId('ap-rule-add').click();
  const rule = section.getByTestId('ap-rule');
  await rule.getByTestId('ap-rule-tool').fill('list_dir');
  await rule.getByTestId('ap-rule-action').selectOption('approve_once');
  await page.getByTestId('auto-prompter-save').click();
  await expect(page.getByTestId('auto-prompter-outcome')).toHaveAttribute('data-ok', 'false');
  await expect(rule.getByTestId('ap-rule-args-error')).toContainText('give at least one argument matcher');
  expect(fs.existsSync(file)).toBe(false);

  const rules = [
    { id: 'no-listing', match: { tool: 'list_dir' }, action: 'deny', reason: 'Ask for file names instead.' },
  ];
  await page.getByTestId('auto-prompter-enabled').check();
  await rule.getByTestId('ap-rule-action').selectOption('deny');
  await rule.getByTestId('ap-rule-id').fill('no-listing');
  await rule.getByTestId('ap-rule-words').fill('Ask for file names instead.');
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
