// The human in the loop, in the browser against a headless host and the scripted model: a run_command waits on its
// approval card until approved or denied and the model gets the real output or the denial; an ASK shows its question
// and takes the next message as the answer; the card takes the idle composer's place (a composer in use stays, locked) and a 409 points at the card;
// a reload or a cancel leaves the cards right; the bell counts what needs the user.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { complete, createInUi, lastToolResult, messagesOf, openUi, runCommand, textOf, waitForJob } from './support/ui';

const jobStatus = (page: Page) => page.getByTestId('job-status');
const bell = (page: Page) => page.getByTestId('notification-bell');

/** The list is a modal dialog: a click on the bell again lands on its backdrop, which closes it (as a person sees it). */
async function clickWhereTheBellIs(page: Page) {
  const box = await bell(page).boundingBox();
  if (!box) throw new Error('the bell is not on screen');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('notification-center')).toHaveCount(0);
}
const taskIdOf = async (page: Page) => (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;

test('P7.01 P7.03 P7.19 P7.20 a command approved once from its card runs; the model gets its output and completes', async ({
  page,
  llm,
  llmHost,
}) => {
  let toolResult = '';
  llm.push(runCommand('echo approved-output'), (request) => {
    toolResult = lastToolResult(request);
    return complete(toolResult.includes('approved-output') ? 'success' : 'failure', 'Printed the word.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Print a word in the shell.', title: 'Approve once' });

  const card = page.getByTestId('tool-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  await expect(card.getByTestId('tool-request-tool')).toHaveText('run_command');
  const summary = card.getByTestId('tool-request-summary');
  await expect(summary).toContainText('$ echo approved-output');
  expect((await summary.textContent())?.split('\n')[0]).toBe('$ echo approved-output');
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'waiting_human');

  // While the card waits it takes the place of the composer (locked, empty, not in use), and the bell counts the task.
  await expect(page.getByTestId('chat-composer')).toHaveAttribute('data-locked', 'true');
  await expect(page.getByTestId('chat-composer')).toBeHidden();
  await expect(bell(page)).toHaveAttribute('data-count', '1');
  await bell(page).click();
  await expect(page.getByTestId('notification-entry')).toHaveAttribute('data-reason', 'tool_request');
  await clickWhereTheBellIs(page);

  await card.getByTestId('approve-once').click();
  await expect(card).toHaveCount(0);
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(toolResult).toContain('approved-output');
  const result = page.locator('[data-testid="chat-message"][data-kind="result"]');
  await expect(result.getByTestId('message-body')).toHaveText('Printed the word.');
  await expect(bell(page)).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('toast').filter({ hasText: 'is done.' })).toBeVisible();
  // The composer is back and offers a follow-up.
  await expect(page.getByTestId('chat-composer')).toBeVisible();
  await expect(page.getByTestId('chat-composer')).toHaveAttribute('data-mode', 'followup');

  const taskId = await taskIdOf(page);
  const { body } = await llmHost.call<{ requests: { status: string; scope: string }[] }>(
    'GET',
    `/tasks/${taskId}/tool-requests`,
  );
  expect(body.requests).toEqual([expect.objectContaining({ status: 'approved', scope: 'once' })]);
  llm.expectEmpty();
});

test('P7.05 a denied command does not run; the model gets an Error result with the reason typed on the card', async ({
  page,
  llm,
  llmHost,
}) => {
  let toolResult = '';
  llm.push(runCommand('echo ran > ran.txt'), (request) => {
    toolResult = lastToolResult(request);
    return complete(toolResult.startsWith('Error') ? 'success' : 'failure', 'Did without the shell.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Write a file with the shell.', title: 'Deny' });

  const card = page.getByTestId('tool-request');
  await expect(card.getByTestId('tool-request-summary')).toContainText('$ echo ran > ran.txt', { timeout: 20_000 });
  // Typing the reason: the card's A / D shortcuts do not fire while the field has the keys.
  await card.getByTestId('deny-reason').fill('Use write_file, not the shell.');
  await expect(card).toBeVisible();
  await card.getByTestId('deny').click();
  await expect(card).toHaveCount(0);
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(toolResult).toMatch(/^Error: the user denied this call, saying: "Use write_file, not the shell\."/);
  expect(fs.existsSync(path.join(llmHost.workspace, 'ran.txt'))).toBe(false);
  await expect(page.locator('[data-testid="chat-message"][data-kind="result"]')).toContainText(
    'Did without the shell.',
  );
  llm.expectEmpty();
});

test('P7.02 P7.20 an ASK shows its question after a reload, the bell finds it from another window, and the answer starts the follow-up', async ({
  page,
  llm,
  llmHost,
}) => {
  let instruction = '';
  llm.push(complete('needs_user_input', 'Which colour?'), (request) => {
    const users = messagesOf(request).filter((m) => m.role === 'user');
    instruction = textOf(users.at(-1));
    return complete(instruction.includes('Blue') ? 'success' : 'failure', 'Painted it blue.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Paint the fence.', title: 'Ask' });

  const question = page.locator('[data-testid="chat-message"][data-kind="question"]');
  await expect(question.getByTestId('message-body')).toHaveText('Which colour?', { timeout: 20_000 });
  await expect(question).toHaveAttribute('data-open', 'true');
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'waiting_human');
  await expect(page.getByTestId('chat-composer')).toHaveAttribute('data-mode', 'answer');
  await expect(page.getByTestId('composer-hint')).toContainText('your next message answers it');
  await expect(page.getByTestId('composer-question')).toContainText('Which colour?');
  await expect(bell(page)).toHaveAttribute('data-count', '1');

  // After a reload the task is open again at its question.
  await page.reload();
  await expect(page.getByTestId('task-view-title')).toHaveText('Ask');
  await expect(question).toHaveAttribute('data-open', 'true');
  // Another window has nothing selected; the bell knows, and its entry opens the task at the question.
  const other = await page.context().newPage();
  await openUi(other, llmHost);
  await expect(other.getByTestId('no-task-selected')).toBeVisible();
  await expect(bell(other)).toHaveAttribute('data-count', '1');
  await bell(other).click();
  const entry = other.getByTestId('notification-entry');
  await expect(entry).toHaveAttribute('data-reason', 'ask');
  await expect(entry).toContainText('Ask');
  await entry.click();
  await expect(other.getByTestId('notification-center')).toHaveCount(0);
  await expect(other.getByTestId('task-view-title')).toHaveText('Ask');
  await expect(other.locator('[data-testid="chat-message"][data-kind="question"]')).toHaveAttribute(
    'data-open',
    'true',
  );
  await other.close();

  await page.getByTestId('composer-input').fill('Blue');
  await page.getByTestId('composer-send').click();
  await expect(page.getByTestId('composer-disposition')).toHaveAttribute('data-disposition', 'followup_job');
  await expect(page.getByTestId('composer-input')).toHaveValue('');
  await expect(page.locator('[data-testid="chat-message"][data-kind="answer"]')).toContainText('Blue');
  await expect(page.getByTestId('toast').filter({ hasText: 'Sent.' })).toBeVisible();

  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(instruction).toContain('Blue');
  await expect(page.locator('[data-testid="chat-message"][data-kind="result"]')).toContainText('Painted it blue.');
  await expect(question).not.toHaveAttribute('data-open', 'true');
  await expect(bell(page)).toHaveAttribute('data-count', '0');
  llm.expectEmpty();
});

test('P7.21 a send that meets 409 approval_pending shows why, points at the card that loads, and keeps the text', async ({
  page,
  llm,
  llmHost,
}) => {
  // The model asks slowly, and this page hears no events: it still thinks the job is queued when it parks.
  llm.push({ ...runCommand('echo hello'), delayMs: 4000 }, complete('success', 'Said hello.'));
  await page.route('**/api/local/events**', (route) => route.abort());
  const created = await llmHost.call<{ task: { id: string } }>('POST', '/tasks', {
    instruction: 'Say hello in the shell.',
    title: 'Stale view',
  });
  const taskId = created.body.task.id;
  await page.goto(llmHost.pageUrl);
  await page.getByTestId('task-item').filter({ hasText: 'Stale view' }).click();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', taskId);
  await expect(page.getByTestId('chat-composer')).toHaveAttribute('data-locked', 'false');
  await expect(page.getByTestId('tool-request')).toHaveCount(0);

  await waitForJob(llmHost, taskId, 'waiting_human');
  await page.getByTestId('composer-input').fill('Please also say goodbye.');
  await page.getByTestId('composer-send').click();

  const error = page.getByTestId('composer-error');
  await expect(error).toContainText('approve or deny it first');
  await expect(error.getByTestId('composer-point-card')).toBeVisible();
  await expect(page.getByTestId('composer-input')).toHaveValue('Please also say goodbye.');
  // The refusal made the page load the request: its card shows, pointed at, and the composer is now locked.
  const cards = page.getByTestId('approval-cards');
  await expect(cards.getByTestId('tool-request-summary')).toContainText('$ echo hello');
  await expect(cards).toBeFocused();
  // Locked, it stays with what was typed (it gives way to the card only when empty and not in use) and says why.
  await expect(page.getByTestId('chat-composer')).toHaveAttribute('data-locked', 'true');
  await expect(page.getByTestId('chat-composer')).toBeVisible();
  await expect(page.getByTestId('composer-locked')).toContainText('tool request waits for your decision');
  await expect(page.getByTestId('composer-send')).toBeDisabled();
  expect((await llmHost.call<{ comments: unknown[] }>('GET', `/tasks/${taskId}`)).body.comments).toHaveLength(1);
  // Emptied, it stays while the person is in it; left, it gives way to the card.
  await page.getByTestId('composer-input').fill('');
  await expect(page.getByTestId('chat-composer')).toBeVisible();
  await cards.focus();
  await expect(page.getByTestId('chat-composer')).toBeHidden();

  await cards.getByTestId('approve-once').click();
  await expect(page.getByTestId('tool-request')).toHaveCount(0);
  await waitForJob(llmHost, taskId, 'succeeded');
  llm.expectEmpty();
});

test('P7.17 P7.04 a card waiting when the page reloads is shown again and can be approved for the task', async ({
  page,
  llm,
  llmHost,
}) => {
  let toolResult = '';
  llm.push(runCommand('echo after-reload'), (request) => {
    toolResult = lastToolResult(request);
    return complete('success', 'Done after the reload.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Print after a reload.', title: 'Reload' });
  await expect(page.getByTestId('tool-request-summary')).toContainText('$ echo after-reload', { timeout: 20_000 });

  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await expect(bell(page)).toHaveAttribute('data-count', '1');
  await page.getByTestId('task-item').filter({ hasText: 'Reload' }).click();
  const card = page.getByTestId('tool-request');
  await expect(card.getByTestId('tool-request-summary')).toContainText('$ echo after-reload');
  await expect(page.getByTestId('chat-composer')).toHaveAttribute('data-locked', 'true');

  await card.getByTestId('approve-task').click();
  await expect(card).toHaveCount(0);
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(toolResult).toContain('after-reload');
  const taskId = await taskIdOf(page);
  const { body } = await llmHost.call<{ requests: { status: string; scope: string }[] }>(
    'GET',
    `/tasks/${taskId}/tool-requests`,
  );
  expect(body.requests).toEqual([expect.objectContaining({ status: 'approved', scope: 'task' })]);
  llm.expectEmpty();
});

test('P7.22 cancel while a card waits clears the card, the stream and the bell entry', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push({ text: 'Let me look at the disk.', ...runCommand('du -sh .') });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'How big is the workspace?', title: 'Cancel' });
  const card = page.getByTestId('tool-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  await expect(bell(page)).toHaveAttribute('data-count', '1');

  await page.getByTestId('task-cancel').click();
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'cancelled');
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('job-stream')).toHaveCount(0);
  await expect(bell(page)).toHaveAttribute('data-count', '0');
  await expect(page.getByTestId('chat-composer')).toHaveAttribute('data-mode', 'followup');
  const taskId = await taskIdOf(page);
  const { body } = await llmHost.call<{ requests: { status: string }[] }>('GET', `/tasks/${taskId}/tool-requests`);
  expect(body.requests.map((r) => r.status)).toEqual(['denied']);
  llm.expectEmpty();
});

test('P7.01 P7.10 a package request shows manager, name, version and reason; denied, the model gets an Error', async ({
  page,
  llm,
  llmHost,
}) => {
  let toolResult = '';
  llm.push(
    {
      toolCalls: [
        {
          name: 'request_package',
          arguments: { manager: 'npm', name: 'left-pad', version: '1.3.0', reason: 'To pad the report columns.' },
        },
      ],
    },
    (request) => {
      toolResult = lastToolResult(request);
      return complete(toolResult.startsWith('Error') ? 'success' : 'failure', 'Padded by hand.');
    },
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Pad the report.', title: 'Package' });

  const card = page.getByTestId('package-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  await expect(card.getByTestId('package-manager')).toHaveText('npm');
  await expect(card.getByTestId('package-name')).toHaveText('left-pad');
  await expect(card.getByTestId('package-version')).toHaveText('1.3.0');
  await expect(card.getByTestId('package-reason')).toHaveText('To pad the report columns.');
  await expect(page.getByTestId('chat-composer')).toHaveAttribute('data-locked', 'true');
  await expect(page.getByTestId('chat-composer')).toBeHidden();
  await bell(page).click();
  await expect(page.getByTestId('notification-entry')).toHaveAttribute('data-reason', 'package_request');
  await clickWhereTheBellIs(page);

  await card.getByTestId('package-deny').click();
  await expect(card).toHaveCount(0);
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(toolResult).toMatch(/^Error/);
  llm.expectEmpty();
});
