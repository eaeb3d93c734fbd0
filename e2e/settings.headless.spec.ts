// Settings in the browser against a headless host and the scripted model: a Workspace Tool Policy edited there is
// the file the next job reads (a denied write_file is an unknown tool to the model, P3.11), a bad command rule is
// refused beside its row with the file unchanged, and a notification switch survives a reload (it lives in the data
// dir). Over HTTP there is no "Open data folder" button: only the path is shown.
import fs from 'node:fs';
import path from 'node:path';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

test('P3.11 a policy saved in Settings denies write_file to the next job of that workspace', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = fs.realpathSync(llmHost.workspace);
  const file = path.join(workspace, '.maestro', 'policy.json');
  await openUi(page, llmHost);
  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('tool-policy-settings');
  await section.getByTestId('tool-policy-workspace').selectOption(workspace);
  await expect(page.getByTestId('tool-policy-mode-write_file')).toHaveValue('allow');
  await expect(page.getByTestId('tool-policy-mode-run_command')).toHaveValue('ask');
  await expect(page.getByTestId('tool-policy-no-commands')).toBeVisible();

  // A rule main refuses (a line break would let a second command through): the error is beside that row, no file.
  await page.getByTestId('tool-policy-command-input').fill('npm test');
  await page.getByTestId('tool-policy-command-add').click();
  await page.getByTestId('tool-policy-mode-write_file').selectOption('deny');
  // The input takes one line; another client could still send two, so main must refuse it.
  await page.route('**/api/local/tool-policy', async (route) => {
    const body = route.request().postDataJSON();
    body.policy.run_command.allow[0] = 'npm test\nrm -rf ~';
    await route.continue({ postData: JSON.stringify(body) });
  });
  await page.getByTestId('tool-policy-save').click();
  const commandRow = page.getByTestId('tool-policy-command').filter({ hasText: 'npm test' });
  await expect(commandRow.getByTestId('tool-policy-error')).toContainText('one line');
  expect(fs.existsSync(file)).toBe(false);
  await page.unroute('**/api/local/tool-policy');

  await page.getByTestId('tool-policy-save').click();
  await expect(page.getByTestId('tool-policy-saved')).toBeVisible();
  expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
    tools: { deny: ['write_file'], ask: [], allow: [] },
    run_command: { allow: ['npm test'], network: [] },
  });
  await page.getByTestId('settings-close').click();

  llm.push(
    { toolCalls: [{ name: 'write_file', arguments: { path: 'notes.txt', content: 'hello' } }] },
    complete('success', 'Could not write.'),
  );
  await createInUi(page, { instruction: 'Write notes.txt.', title: 'Denied write' });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const offered = (llm.requests[0]?.body?.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
  expect(offered).toContain('read_file');
  expect(offered).not.toContain('write_file');
  const answer = messagesOf(llm.requests[1] as (typeof llm.requests)[number]).at(-1);
  expect(textOf(answer)).toMatch(/^Error: unknown tool write_file; the tools are /);
  expect(fs.existsSync(path.join(workspace, 'notes.txt'))).toBe(false);

  // The folder is a space now: Settings lists it under its name, with the saved policy.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('tool-policy-workspace').selectOption(workspace);
  await expect(page.getByTestId('tool-policy-workspace').locator('option:checked')).toContainText(
    path.basename(workspace),
  );
  await expect(page.getByTestId('tool-policy-mode-write_file')).toHaveValue('deny');
  await expect(page.getByTestId('tool-policy-command')).toHaveText([/npm test/]);
});

test('a notification kind turned off survives a reload; the data folder is shown without an open button', async ({
  page,
  host,
}) => {
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('data-dir')).toHaveText(path.resolve(host.dataDir));
  await expect(page.getByTestId('open-data-folder')).toHaveCount(0);
  await expect(page.getByTestId('notifications-kind-succeeded')).toBeChecked();
  await page.getByTestId('notifications-kind-succeeded').uncheck();
  await expect(page.getByTestId('notifications-outcome')).toHaveAttribute('data-ok', 'true');
  const stored = JSON.parse(fs.readFileSync(path.join(host.dataDir, 'settings.json'), 'utf8'));
  expect(stored.notifications.kinds).toMatchObject({ succeeded: false, failed: true });

  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('notifications-kind-succeeded')).not.toBeChecked();
  await expect(page.getByTestId('notifications-kind-failed')).toBeChecked();
  await expect(page.getByTestId('notifications-os')).toBeChecked();
});

test('Settings → Data shows the room the data takes, keeps a retention typed in whole days, and cleans up now', async ({
  page,
  host,
}) => {
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  const usage = page.getByTestId('storage-usage');
  await expect(usage).toContainText('database');
  const dbBytes = fs.statSync(path.join(host.dataDir, 'maestro.db')).size;
  expect(Number(await usage.getAttribute('data-bytes'))).toBeGreaterThanOrEqual(dbBytes);

  // Not a whole number of days: said so, and nothing is written.
  await expect(page.getByTestId('retention-days')).toHaveValue('30');
  await page.getByTestId('retention-days').fill('2.5');
  await page.getByTestId('retention-save').click();
  await expect(page.getByTestId('storage-outcome')).toHaveAttribute('data-ok', 'false');
  await expect(page.getByTestId('storage-outcome')).toContainText('2.5');
  expect(fs.existsSync(path.join(host.dataDir, 'settings.json'))).toBe(false);

  await page.getByTestId('retention-days').fill('7');
  await page.getByTestId('retention-save').click();
  await expect(page.getByTestId('storage-outcome')).toHaveAttribute('data-ok', 'true');
  const stored = JSON.parse(fs.readFileSync(path.join(host.dataDir, 'settings.json'), 'utf8'));
  expect(stored.retention).toEqual({ activityDays: 7 });

  await page.getByTestId('clean-up').click();
  await expect(page.getByTestId('storage-outcome')).toHaveAttribute('data-ok', 'true');
  await expect(page.getByTestId('storage-outcome')).toContainText('freed');
  // The WAL was truncated by the clean-up (nothing runs).
  expect(fs.statSync(path.join(host.dataDir, 'maestro.db-wal')).size).toBe(0);
  await expectAccessible(page, '[data-testid="data-location"]');
});
