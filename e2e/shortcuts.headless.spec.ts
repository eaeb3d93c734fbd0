// Keyboard shortcuts in the browser against a headless host: Ctrl+N opens the create dialog and Escape closes it,
// Ctrl+Enter sends from the composer, A approves a focused tool request card and the job goes on (letters typed in
// a field stay letters), Ctrl+Shift+D denies the only card, Ctrl+J walks the tasks that wait, and ? shows the help.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { complete, createInUi, lastToolResult, openUi, runCommand, waitForJob } from './support/ui';

async function createOverHttp(host: HeadlessHost, body: Record<string, unknown>): Promise<string> {
  const response = await host.call<{ task: { id: string } }>('POST', '/tasks', body);
  expect(response.status).toBe(201);
  return response.body.task.id;
}

const selectedTaskId = (page: Page) => page.getByTestId('task-view').getAttribute('data-task-id');

test('Ctrl+N opens the create dialog, keys typed in it stay text, and Escape closes it', async ({ page, host }) => {
  await openUi(page, host);
  await page.keyboard.press('Control+n');
  const form = page.getByTestId('create-task-form');
  await expect(form).toBeVisible();
  await expect(page.getByTestId('field-instruction')).toBeFocused();

  // Inside the dialog's field, "?" and Ctrl+N are the field's: no help, no second dialog.
  await page.keyboard.type('What is 6 × 7?');
  await page.keyboard.press('Control+n');
  await expect(page.getByTestId('field-instruction')).toHaveValue('What is 6 × 7?');
  await expect(page.getByTestId('shortcut-help')).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(1);

  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  expect((await host.call<{ tasks: unknown[] }>('GET', '/tasks')).body.tasks).toEqual([]);
});

test('? shows every shortcut with Ctrl on this platform; Escape closes the help', async ({ page, host }) => {
  await openUi(page, host);
  await expect(page.getByTestId('new-task')).toHaveAttribute('title', 'Ctrl+N');
  await page.keyboard.press('Shift+Slash');
  const help = page.getByTestId('shortcut-help');
  await expect(help).toBeVisible();
  await expect(help.getByTestId('shortcut-row')).toHaveCount(10);
  const keysOf = (id: string) => help.locator(`[data-shortcut="${id}"]`).getByTestId('shortcut-keys');
  await expect(keysOf('newTask')).toHaveText('CtrlN');
  await expect(keysOf('send')).toHaveText('CtrlEnter');
  await expect(keysOf('approveOnce')).toHaveText(['A', 'CtrlShiftA']);
  await expect(keysOf('nextWaiting')).toHaveText('CtrlJ');
  await expect(keysOf('toggleSidebar')).toHaveText('CtrlB');
  await expect(help.locator('[data-shortcut="approveOnce"]')).toContainText('on a focused approval card');
  // While the help is open, the other shortcuts are out of reach.
  await page.keyboard.press('Control+n');
  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);

  // The header button opens it too.
  await page.getByTestId('open-shortcuts').click();
  await expect(help).toBeVisible();
  await page.getByTestId('shortcut-help-close').click();
  await expect(help).toHaveCount(0);
});

test('P7.24 Ctrl+Enter in the composer sends the comment; plain Enter does not', async ({ page, host }) => {
  const taskId = await createOverHttp(host, { instruction: 'Queued work', title: 'Composer keys' });
  await openUi(page, host);
  await page.getByTestId('task-item').filter({ hasText: 'Composer keys' }).click();

  const composer = page.getByTestId('composer-input');
  await expect(composer).toHaveAttribute('placeholder', /\(Ctrl\+Enter sends\)/);
  await composer.fill('First line');
  await composer.press('Enter');
  await composer.pressSequentially('second line');
  await expect(composer).toHaveValue('First line\nsecond line');
  await composer.press('Control+Enter');

  await expect(page.getByTestId('composer-disposition')).toHaveAttribute('data-disposition', 'reused_job');
  await expect(composer).toHaveValue('');
  const { body } = await host.call<{ comments: { kind: string; body: string }[] }>('GET', `/tasks/${taskId}`);
  expect(body.comments.map((c) => [c.kind, c.body])).toEqual([
    ['instruction', 'Queued work'],
    ['comment', 'First line\nsecond line'],
  ]);
});

test('P7.03 A approves the focused tool request card once and the job goes on; an "a" typed in the composer does not', async ({
  page,
  llm,
  llmHost,
}) => {
  let toolResult = '';
  // The model asks after a moment: the person is typing in the composer when the card comes (which then stays).
  llm.push({ ...runCommand('echo approved-by-key'), delayMs: 2500 }, (request) => {
    toolResult = lastToolResult(request);
    return complete(toolResult.includes('approved-by-key') ? 'success' : 'failure', 'Ran it.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Print a word.', title: 'Key approve' });
  await page.getByTestId('composer-input').focus();
  const card = page.getByTestId('tool-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  await expect(card.getByTestId('approve-once')).toHaveAttribute('aria-keyshortcuts', 'A Control+Shift+A');

  await page.getByTestId('composer-input').pressSequentially('a d');
  await expect(page.getByTestId('composer-input')).toHaveValue('a d');
  await expect(card).toHaveCount(1);

  await card.focus();
  await page.keyboard.press('a');
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(toolResult).toContain('approved-by-key');
  const taskId = (await selectedTaskId(page)) as string;
  const { body } = await llmHost.call<{ requests: { status: string; scope: string }[] }>(
    'GET',
    `/tasks/${taskId}/tool-requests`,
  );
  expect(body.requests).toEqual([expect.objectContaining({ status: 'approved', scope: 'once' })]);
  llm.expectEmpty();
});

test('P7.10 Ctrl+Shift+D denies the only package request card from anywhere but a field', async ({
  page,
  llm,
  llmHost,
}) => {
  let toolResult = '';
  llm.push(
    {
      toolCalls: [
        { name: 'request_package', arguments: { manager: 'npm', name: 'left-pad', reason: 'To pad the columns.' } },
      ],
    },
    (request) => {
      toolResult = lastToolResult(request);
      return complete(toolResult.startsWith('Error') ? 'success' : 'failure', 'Padded by hand.');
    },
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Pad the report.', title: 'Key deny' });
  const card = page.getByTestId('package-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });

  await page.getByTestId('task-view-title').click();
  await page.keyboard.press('Control+Shift+D');
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(toolResult).toMatch(/^Error/);
  llm.expectEmpty();
});

test('Ctrl+J moves the selection to the next task that waits for the user, round and round', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(
    complete('needs_user_input', 'First question?'),
    complete('success', 'Done without asking.'),
    complete('needs_user_input', 'Second question?'),
  );
  const first = await createOverHttp(llmHost, { instruction: 'Ask me one thing.', title: 'Asks first' });
  await waitForJob(llmHost, first, 'waiting_human');
  // Between the two in the list, a task that does not wait.
  const done = await createOverHttp(llmHost, { instruction: 'Just do it.', title: 'Done' });
  await waitForJob(llmHost, done, 'succeeded');
  const second = await createOverHttp(llmHost, { instruction: 'Ask me another.', title: 'Asks second' });
  await waitForJob(llmHost, second, 'waiting_human');
  await openUi(page, llmHost);
  await expect(page.getByTestId('task-item')).toHaveCount(3);
  await expect(page.getByTestId('no-task-selected')).toBeVisible();

  // Newest first: the second task is at the top of the list; "Done" is skipped.
  await page.keyboard.press('Control+j');
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', second);
  await expect(page.getByTestId('task-item').filter({ hasText: 'Asks second' })).toHaveAttribute(
    'aria-current',
    'true',
  );
  await page.keyboard.press('Control+j');
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', first);
  await page.keyboard.press('Control+j');
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', second);

  // Answered, the second no longer waits: Ctrl+J from the first says no other task waits.
  await page.getByTestId('task-item').filter({ hasText: 'Asks first' }).click();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', first);
  llm.push(complete('success', 'Thanks.'));
  await llmHost.call('POST', `/tasks/${second}/comments`, { body: 'Blue.' });
  await waitForJob(llmHost, second, 'succeeded');
  await page.getByTestId('task-view-title').click();
  await page.keyboard.press('Control+j');
  await expect(page.getByTestId('toast').filter({ hasText: 'No other task waits for you.' })).toBeVisible();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', first);
  llm.expectEmpty();
});
