// The built renderer in Chromium against the built headless host: create a task through the form, see HTTP-made
// changes arrive over SSE without a reload, post a comment from the composer, and see a 400 on the named field.
// These hosts have no LLM profile (see job-stream.headless.spec.ts for jobs that run), so every job stays `queued`.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { renameOpenTask, typeFolder } from './support/ui';

interface Task {
  id: string;
  title: string;
  status: string | null;
}
interface Comment {
  id: string;
  kind: string;
  body: string;
}

async function openUi(page: Page, host: HeadlessHost): Promise<void> {
  await page.goto(host.pageUrl);
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
}

async function createOverHttp(host: HeadlessHost, body: Record<string, unknown>): Promise<Task> {
  const response = await host.call<{ task: Task }>('POST', '/tasks', body);
  expect(response.status).toBe(201);
  return response.body.task;
}

const taskItem = (page: Page, title: string) => page.getByTestId('task-item').filter({ hasText: title });

test('P7.23 a task created through the form is selected, queued, and visible over HTTP', async ({ page, host }) => {
  await openUi(page, host);
  // The token came in the fragment and no longer sits in the address bar.
  expect(page.url()).not.toContain(host.token);

  await page.getByTestId('new-task').click();
  await page.getByTestId('field-instruction').fill('Write a haiku about durable queues.');
  await expect(page.getByTestId('field-piece').locator('option[value="default"]')).toHaveCount(1);
  await page.getByTestId('field-piece').selectOption('default');
  await page.getByTestId('create-submit').click();

  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  await renameOpenTask(page, 'Haiku');
  const item = taskItem(page, 'Haiku');
  await expect(item).toHaveAttribute('aria-current', 'true');
  await expect(item.getByTestId('status-badge')).toHaveAttribute('data-status', 'queued');
  await expect(page.getByTestId('task-view-title')).toHaveText('Haiku');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'queued');
  const instruction = page.locator('[data-testid="chat-message"][data-kind="instruction"]');
  await expect(instruction).toHaveCount(1);
  await expect(instruction.getByTestId('message-body')).toHaveText('Write a haiku about durable queues.');

  const taskId = await page.getByTestId('task-view').getAttribute('data-task-id');
  const listed = await host.call<{ tasks: Task[] }>('GET', '/tasks');
  expect(listed.status).toBe(200);
  expect(listed.body.tasks).toHaveLength(1);
  expect(listed.body.tasks[0]).toMatchObject({ id: taskId, title: 'Haiku', pieceId: 'default', status: 'queued' });
});

test('P7.14 tasks and comments made over HTTP appear in the open UI without a reload', async ({ page, host }) => {
  const older = await createOverHttp(host, { instruction: 'Older task', title: 'Older' });
  await openUi(page, host);
  await expect(taskItem(page, 'Older')).toBeVisible();
  await page.evaluate(() => {
    (globalThis as Record<string, unknown>).__sameDocument = true;
  });

  const created = await createOverHttp(host, { instruction: 'Made by a script', title: 'From HTTP' });
  const item = taskItem(page, 'From HTTP');
  await expect(item).toBeVisible();
  await expect(item.getByTestId('status-badge')).toHaveAttribute('data-status', 'queued');
  // Newest first.
  await expect(page.getByTestId('task-title').first()).toHaveText('From HTTP');
  await expect(page.getByTestId('task-title')).toHaveText(['From HTTP', 'Older']);

  await item.click();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', created.id);
  const posted = await host.call('POST', `/tasks/${created.id}/comments`, { body: 'A note from outside' });
  expect(posted.status).toBe(201);
  await expect(page.locator('[data-testid="chat-message"][data-kind="comment"]')).toHaveText(/A note from outside/);

  // The comment went to the selected task only, and the page never reloaded.
  await taskItem(page, 'Older').click();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', older.id);
  await expect(page.getByTestId('chat-message')).toHaveCount(1);
  expect(await page.evaluate(() => (globalThis as Record<string, unknown>).__sameDocument)).toBe(true);
});

test('P7.24 a comment from the composer shows with its disposition', async ({ page, host }) => {
  const task = await createOverHttp(host, { instruction: 'Summarise the README', title: 'Summary' });
  await openUi(page, host);
  await taskItem(page, 'Summary').click();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', task.id);

  const send = page.getByTestId('composer-send');
  await expect(send).toBeDisabled();
  await page.getByTestId('composer-input').fill('Keep it under 100 words.');
  await send.click();

  // The job is still queued, so the write gate adds the comment to it.
  await expect(page.getByTestId('composer-disposition')).toHaveAttribute('data-disposition', 'reused_job');
  await expect(page.getByTestId('composer-disposition')).toContainText('added before the agent starts');
  await expect(page.getByTestId('composer-input')).toHaveValue('');
  const message = page.locator('[data-testid="chat-message"][data-kind="comment"]');
  await expect(message).toHaveCount(1);
  await expect(message.getByTestId('message-body')).toHaveText('Keep it under 100 words.');
  await expect(message.getByTestId('message-disposition')).toHaveAttribute('data-disposition', 'reused_job');
  // Each kind is visibly distinct: the instruction and the comment carry different labels and styles.
  const instruction = page.locator('[data-testid="chat-message"][data-kind="instruction"]');
  await expect(instruction.getByTestId('message-kind')).toHaveText('Instruction');
  await expect(message.getByTestId('message-kind')).toHaveText('Comment');
  const borderOf = (kind: string) =>
    page
      .locator(`[data-testid="chat-message"][data-kind="${kind}"]`)
      .evaluate((el) => getComputedStyle(el).borderLeftColor);
  expect(await borderOf('instruction')).not.toBe(await borderOf('comment'));

  const detail = await host.call<{ comments: Comment[] }>('GET', `/tasks/${task.id}`);
  expect(detail.body.comments.map((c) => [c.kind, c.body])).toEqual([
    ['instruction', 'Summarise the README'],
    ['comment', 'Keep it under 100 words.'],
  ]);
});

test('P7.23 a 400 from the bridge shows on the field it names, and nothing is created', async ({ page, host }) => {
  await openUi(page, host);
  await page.getByTestId('new-task').click();
  await page.getByTestId('field-instruction').fill('   ');
  await page.getByTestId('create-submit').click();

  await expect(page.getByTestId('field-error-instruction')).toHaveText('must not be empty');
  await expect(page.getByTestId('field-instruction')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('create-task-form')).toBeVisible();

  // A rule only the server knows (the folder must exist) lands on its own field too.
  await page.getByTestId('field-instruction').fill('A real instruction');
  await typeFolder(page, path.join(host.workspace, 'does-not-exist'));
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('field-error-workspacePath')).toContainText('does not exist');
  await expect(page.getByTestId('field-error-instruction')).toHaveCount(0);

  const listed = await host.call<{ tasks: Task[] }>('GET', '/tasks');
  expect(listed.body.tasks).toEqual([]);
  await expect(page.getByTestId('task-list-empty')).toBeVisible();
});

test('P7.24 Cancel ends the job live, and Continue is enabled only once it is terminal', async ({ page, host }) => {
  await createOverHttp(host, { instruction: 'Something long', title: 'Long job' });
  await openUi(page, host);
  await taskItem(page, 'Long job').click();

  const cont = page.getByTestId('task-continue');
  await expect(cont).toBeDisabled();
  await page.getByTestId('task-cancel').click();
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'cancelled');
  await expect(taskItem(page, 'Long job').getByTestId('status-badge')).toHaveAttribute('data-status', 'cancelled');
  await expect(cont).toBeEnabled();
  await cont.click();
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'queued');
  await expect(cont).toBeDisabled();
});
