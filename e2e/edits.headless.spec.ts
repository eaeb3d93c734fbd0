// Reviewing changes in the browser against a headless host and the scripted model: a 300-line rewrite shows its whole
// diff once opened (the model read a capped one), the job's "Files changed" block follows its result with each file's
// counts and diff, and with the Tool Policy asking before edits (the Settings switch) an edit's card shows the diff it
// would apply — approved, the file is written; denied, it is not.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { complete, createInUi, openUi } from './support/ui';

const numbered = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i}\n`).join('');

test('a 300-line rewrite shows its whole diff after "Show all"; the files changed follow the result', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = fs.realpathSync(llmHost.workspace);
  fs.writeFileSync(path.join(workspace, 'big.txt'), numbered(300, 'old'));
  fs.writeFileSync(path.join(workspace, 'app.ts'), 'const a = 1;\nconst b = 2;\n');
  llm.push(
    { toolCalls: [{ name: 'write_file', arguments: { path: 'big.txt', content: numbered(300, 'new') } }] },
    {
      toolCalls: [
        { name: 'edit_file', arguments: { path: 'app.ts', old_string: 'const b = 2;', new_string: 'const b = 3;' } },
      ],
    },
    complete('success', 'Rewritten.'),
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Rewrite big.txt, then fix b.', title: 'Rewrite' });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  // The feed has its last rows (the result, then the files changed): rows stop moving before one is clicked.
  await expect(page.getByTestId('files-changed')).toBeVisible();

  const write = page.locator('[data-testid="step-tool"][data-tool="write_file"]');
  const diff = write.getByTestId('diff-view');
  await expect(diff).toHaveAttribute('data-added', '300');
  await expect(diff).toHaveAttribute('data-removed', '300');
  await expect(diff.locator('tr[data-kind="added"]')).not.toHaveCount(300);
  // Rows may still move while the feed measures them: a click that missed is made again, one that opened it is not.
  const toggle = diff.getByTestId('diff-toggle');
  await expect(async () => {
    if ((await toggle.textContent())?.startsWith('Show all')) await toggle.click();
    await expect(diff.locator('tr[data-kind="added"]')).toHaveCount(300, { timeout: 1000 });
  }).toPass();
  await expect(diff.locator('tr[data-kind="removed"]')).toHaveCount(300);
  await expect(diff.locator('tr[data-kind="added"]').last()).toContainText('new 299');
  await expect(diff).not.toContainText('not shown');
  // The model read the capped diff.
  const seen = JSON.stringify(llm.requests[1]?.body?.messages ?? []);
  expect(seen).toContain('more diff lines not shown');
  expect(seen).not.toContain('+new 299');

  // "Files changed" is the row right after the result.
  const result = page.locator('[data-testid="feed-row"]').filter({ has: page.locator('[data-kind="result"]') });
  await expect(result).toContainText('Rewritten.');
  const files = page.getByTestId('files-changed');
  await expect(files).toContainText('Files changed (2)');
  const resultIndex = Number(await result.getAttribute('data-index'));
  const filesRow = page.locator('[data-testid="feed-row"]').filter({ has: files });
  await expect(filesRow).toHaveAttribute('data-index', String(resultIndex + 1));
  const items = files.getByTestId('files-changed-file');
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute('data-path', 'big.txt');
  await expect(items.nth(0).getByTestId('files-changed-added')).toHaveText('+300');
  await expect(items.nth(0).getByTestId('files-changed-removed')).toHaveText('−300');
  const app = items.nth(1);
  await expect(app).toHaveAttribute('data-path', 'app.ts');
  await expect(app.getByTestId('files-changed-diff')).toHaveCount(0);
  const appToggle = app.getByTestId('files-changed-toggle');
  await expect(async () => {
    if ((await appToggle.getAttribute('aria-expanded')) !== 'true') await appToggle.click();
    await expect(app.getByTestId('files-changed-diff')).toBeVisible({ timeout: 1000 });
  }).toPass();
  const appDiff = app.getByTestId('files-changed-diff');
  await expect(appDiff.locator('tr[data-kind="removed"]')).toHaveText([/const b = 2;/]);
  await expect(appDiff.locator('tr[data-kind="added"]')).toHaveText([/const b = 3;/]);

  await page.reload();
  await expect(page.getByTestId('files-changed').getByTestId('files-changed-file')).toHaveCount(2);
  llm.expectEmpty();
});

test('P7.05 with the policy asking before edits, the card shows the diff: approved it is written, denied it is not', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = fs.realpathSync(llmHost.workspace);
  const notes = path.join(workspace, 'notes.md');
  fs.writeFileSync(notes, '# Notes\nold line\n');
  await openUi(page, llmHost);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('tool-policy-workspace').selectOption(workspace);
  const askEdits = page.getByTestId('tool-policy-ask-edits');
  await expect(askEdits).not.toBeChecked();
  await askEdits.check();
  await page.getByTestId('tool-policy-save').click();
  await expect(page.getByTestId('tool-policy-saved')).toBeVisible();
  expect(JSON.parse(fs.readFileSync(path.join(workspace, '.maestro', 'policy.json'), 'utf8')).tools.ask).toEqual([
    'edit_file',
    'write_file',
  ]);
  await page.getByTestId('settings-close').click();

  llm.push(
    {
      toolCalls: [
        { name: 'edit_file', arguments: { path: 'notes.md', old_string: 'old line', new_string: 'new line' } },
      ],
    },
    { toolCalls: [{ name: 'write_file', arguments: { path: 'secret.txt', content: 'nope\n' } }] },
    complete('success', 'One edit made.'),
  );
  await createInUi(page, { instruction: 'Edit the notes, then write secret.txt.', title: 'Ask first' });

  const card = page.getByTestId('tool-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  await expect(card).toHaveAttribute('data-tool', 'edit_file');
  await expect(card.getByTestId('tool-request-summary')).toContainText('Edit notes.md');
  const cardDiff = card.getByTestId('tool-request-diff');
  await expect(cardDiff.locator('tr[data-kind="removed"]')).toHaveText([/old line/]);
  await expect(cardDiff.locator('tr[data-kind="added"]')).toHaveText([/new line/]);
  expect(fs.readFileSync(notes, 'utf8')).toBe('# Notes\nold line\n');
  await card.getByTestId('approve-once').click();

  await expect(card).toHaveAttribute('data-tool', 'write_file', { timeout: 20_000 });
  expect(fs.readFileSync(notes, 'utf8')).toBe('# Notes\nnew line\n');
  await expect(card.getByTestId('tool-request-summary')).toContainText('Write secret.txt');
  await expect(card.getByTestId('tool-request-diff').locator('tr[data-kind="added"]')).toHaveText([/nope/]);
  await card.getByTestId('deny-reason').fill('not that file');
  await card.getByTestId('deny').click();

  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(fs.existsSync(path.join(workspace, 'secret.txt'))).toBe(false);
  const denied = JSON.stringify(llm.requests[2]?.body?.messages ?? []);
  expect(denied).toContain('not that file');
  const files = page.getByTestId('files-changed').getByTestId('files-changed-file');
  await expect(files).toHaveCount(1);
  await expect(files).toHaveAttribute('data-path', 'notes.md');
  llm.expectEmpty();
});
