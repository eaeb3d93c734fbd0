// The chat remembers what the agent did, in the browser against a headless host and the scripted model: after the
// job ends, after a reload and after switching tasks, each step shows its text as Markdown, its calls with one state
// each, an edit as a coloured diff, a command with its exit code and output and the person's decision on it; a
// cancelled job keeps the steps it had recorded; Japanese and the dark theme show the same rows.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { complete, createInUi, openUi, runCommand } from './support/ui';

const steps = (page: Page) => page.getByTestId('chat-step');
const jobStatus = (page: Page) => page.getByTestId('job-status');

/** What the chat shows of the first task: the agent's text, the edit's diff, the approved command, the answer. */
async function expectHistory(page: Page, labels: { ok: string; once: string }) {
  await expect(steps(page)).toHaveCount(2);
  await expect(steps(page).first().getByTestId('step-text')).toContainText('I will write the notes first.');
  await expect(steps(page).first().locator('strong')).toHaveText('notes');
  const edit = page.locator('[data-testid="step-tool"][data-tool="write_file"]');
  await expect(edit).toHaveAttribute('data-status', 'ok');
  await expect(edit.getByText(labels.ok)).toBeVisible();
  const diff = edit.getByTestId('diff-view');
  await expect(diff).toHaveAttribute('data-added', '2');
  await expect(diff.locator('tr[data-kind="added"]')).toHaveCount(2);
  await expect(diff.locator('tr[data-kind="added"]').first()).toContainText('# Notes');
  const command = page.locator('[data-testid="step-tool"][data-tool="run_command"]');
  await expect(command).toHaveAttribute('data-status', 'ok');
  await expect(command.getByTestId('step-command')).toContainText('$ echo history-output');
  await expect(command.getByTestId('step-decision')).toHaveText(labels.once);
  await command.getByTestId('step-output').locator('summary').click();
  await expect(command.getByTestId('step-output')).toContainText('history-output');
  // Every call has one state and none is shown running once the job ended.
  await expect(page.locator('[data-testid="step-tool"][data-status="running"]')).toHaveCount(0);
  await expect(page.locator('[data-testid="chat-message"][data-kind="result"]')).toContainText('Notes written.');
  await expect(page.getByTestId('job-stream')).toHaveCount(0);
}

test('P3.16 P7.16 P7.17 the chat shows every step after the job ended, after a reload and after switching tasks', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(
    {
      text: 'I will write the **notes** first.',
      reasoning: 'A file, then a check.',
      toolCalls: [{ name: 'write_file', arguments: { path: 'notes.md', content: '# Notes\nhello\n' } }],
    },
    runCommand('echo history-output'),
    complete('success', 'Notes written.'),
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Write notes, then check them.', title: 'History' });
  const card = page.getByTestId('tool-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  // While the card waits, the call says so — not "running".
  await expect(page.locator('[data-testid="step-tool"][data-tool="run_command"]')).toHaveAttribute(
    'data-status',
    'waiting',
  );
  await card.getByTestId('approve-once').click();
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const labels = { ok: 'done', once: 'Approved once' };
  await expectHistory(page, labels);
  await expect(steps(page).first().getByTestId('step-reasoning')).toContainText('A file, then a check.');

  await page.reload();
  await expect(page.getByTestId('task-view-title')).toHaveText('History');
  await expectHistory(page, labels);

  llm.push(complete('success', 'Second done.'));
  await createInUi(page, { instruction: 'Something else.', title: 'Other' });
  await expect(page.locator('[data-testid="chat-message"][data-kind="result"]')).toContainText('Second done.', {
    timeout: 20_000,
  });
  await page.locator('[data-testid="task-item"]').filter({ hasText: 'History' }).click();
  await expectHistory(page, labels);

  // Japanese, dark: the same rows in the other language.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-locale').selectOption('ja');
  await page.getByTestId('settings-theme').selectOption('dark');
  await page.getByTestId('settings-close').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectHistory(page, { ok: '完了', once: '今回のみ承認' });
  llm.expectEmpty();
});

test('P7.22 a cancelled job keeps the steps it had recorded, none of them shown as failed, and says so in Japanese too', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(
    { text: 'Listing first.', toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
    { fault: 'hang', text: 'Thinking about' },
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'List, then think.', title: 'Cancel me' });
  await expect(page.locator('[data-testid="step-tool"][data-tool="list_dir"]')).toHaveAttribute('data-status', 'ok', {
    timeout: 20_000,
  });
  await expect(page.getByTestId('stream-text')).toContainText('Thinking about');
  await page.getByTestId('task-cancel').click();
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'cancelled', { timeout: 20_000 });
  await expect(steps(page).first().getByTestId('step-text')).toHaveText('Listing first.');
  await page.reload();
  await expect(steps(page).first().getByTestId('step-text')).toHaveText('Listing first.');
  await expect(page.locator('[data-testid="step-tool"][data-tool="list_dir"]')).toHaveAttribute('data-status', 'ok');
  await expect(page.getByTestId('step-error')).toHaveCount(0);
  // The system's word for it follows the UI's language (a notice, not the English text the API keeps).
  const said = page.locator('[data-testid="chat-message"][data-author="system"]').last();
  await expect(said).toHaveText(/Cancelled\./);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-locale').selectOption('ja');
  await page.getByTestId('settings-close').click();
  await expect(said).toContainText('キャンセルしました。');
});

test('P4.27 P2.30 in Japanese, a failed job says what went wrong once, in the chat, with the detail folded and times in 24-hour form', async ({
  page,
  llm,
  llmHost,
}) => {
  const same = { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] };
  llm.push(same, same, same, same, same);
  await openUi(page, llmHost);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-locale').selectOption('ja');
  await page.getByTestId('settings-close').click();
  await createInUi(page, { instruction: '同じことを繰り返す', title: 'ループ' });
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  // One place: the chat's error comment; the header does not repeat it.
  const error = page.getByTestId('error-comment');
  await expect(error).toHaveCount(1);
  await expect(page.getByTestId('job-error')).toHaveCount(0);
  await expect(error).toHaveAttribute('data-code', 'tool_loop');
  await expect(error.getByTestId('job-error-headline')).toHaveText(
    'エージェントが同じツール呼び出しを繰り返したため、実行を停止しました。',
  );
  await expect(error).toContainText('もう一度試すには、メッセージを送る');
  await expect(error.getByTestId('job-error-detail')).toBeHidden();
  await error.locator('summary').click();
  await expect(error.getByTestId('job-error-detail')).toContainText('tool loop: list_dir was called 5 times');
  await expect(error).not.toContainText('To try again');
  // The steps it took are there, each call with its own state; the last was answered "not run".
  await expect(page.locator('[data-testid="step-tool"][data-tool="list_dir"]')).toHaveCount(5);
  await expect(page.locator('[data-testid="step-tool"][data-status="error"]')).toHaveCount(1);
  await expect(page.locator('[data-testid="step-tool"]').first()).toContainText('完了');
  for (const time of await page.getByTestId('chat-message').locator('time').allTextContents()) {
    expect(time).toMatch(/^\d{1,2}:\d{2}$/);
  }
});

test('P7.01 P7.05 in Japanese, a command card says where and how long it runs, and the denial with its reason shows on the call', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(runCommand('echo hi'), complete('success', '止めました。'));
  await openUi(page, llmHost);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-locale').selectOption('ja');
  await page.getByTestId('settings-close').click();
  await createInUi(page, { instruction: 'コマンドを実行する', title: 'カード' });
  const card = page.getByTestId('tool-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  const summary = card.getByTestId('tool-request-summary');
  await expect(summary).toContainText('$ echo hi');
  await expect(summary).toContainText('ワークスペースのフォルダー で実行し、120 秒で停止します。');
  await expect(summary).not.toContainText('runs in');
  await card.getByTestId('deny-reason').fill('今は不要');
  await card.getByTestId('deny').click();
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const command = page.locator('[data-testid="step-tool"][data-tool="run_command"]');
  await expect(command).toHaveAttribute('data-status', 'denied');
  await expect(command.getByTestId('step-decision')).toHaveText('あなたが拒否しました — 理由: 今は不要');
});

test('P7.17 a reload in the middle of a stream: afterwards the turn shows once, whole, and nothing twice', async ({
  page,
  llm,
  llmHost,
}) => {
  const text = Array.from({ length: 40 }, (_, i) => `Sentence ${i} of the long answer.`).join(' ');
  llm.push({ text, textChunks: 40, chunkDelayMs: 100, toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] });
  llm.push(complete('success', 'Listed.'));
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Explain, then list.', title: 'Reload mid-stream' });
  await expect(page.getByTestId('stream-text')).toContainText('Sentence 3 ', { timeout: 20_000 });
  await page.reload();
  await expect(page.getByTestId('task-view-title')).toHaveText('Reload mid-stream');
  // While it still streams, the reloaded window shows the turn from its start: the host sends it the turn so far.
  await expect(page.getByTestId('stream-text')).toContainText('Sentence 0 of the long answer. Sentence 1 of');
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(steps(page)).toHaveCount(1);
  await expect(steps(page).getByTestId('step-text')).toHaveText(text);
  await expect(page.getByTestId('job-stream')).toHaveCount(0);
  await expect(page.getByText('Sentence 39 of the long answer.', { exact: false })).toHaveCount(1);
});
