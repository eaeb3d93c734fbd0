// Living with many tasks (issue 14, item 7), in the browser against a headless host and the scripted model: the list
// groups a subtask under its parent and folds it; search, rename, archive and delete (after a confirmation) work and
// reach a second window; the sidebar folds away and stays so after a reload; and at 1024×700 with an approval card up
// the feed keeps at least 120 px and a toast stays clear of the composer.
import type { Locator, Page } from '@playwright/test';
import type { RecordedRequest, ScriptedStep } from '../test-support/scripted-llm-server';
import { expect, test } from './support/fixtures';
import { complete, createInUi, messagesOf, openUi, runCommand, textOf, waitForJob } from './support/ui';

test.use({ viewport: { width: 1024, height: 700 } });

/**
 * One answer for every request, whichever job asks first (the parent and its subtask run side by side): the subtask
 * and the other task complete; the parent starts the subtask, then asks to run a command and waits on its card.
 */
function modelFor(request: RecordedRequest): ScriptedStep {
  const messages = messagesOf(request);
  const said = messages.map(textOf).join('\n');
  if (said.includes('CHILD-WORK') || !said.includes('PARENT-WORK')) return complete('success', 'Done.');
  if (messages.at(-1)?.role !== 'tool') {
    return {
      toolCalls: [
        { name: 'create_subtask', arguments: { instruction: 'CHILD-WORK: count the files', title: 'Count files' } },
      ],
    };
  }
  return runCommand('echo release');
}

const row = (page: Page, title: string) => page.getByTestId('task-row').filter({ hasText: title });
const rowTitles = (page: Page) => page.getByTestId('task-row').getByTestId('task-title').allTextContents();

async function menu(page: Page, title: string, item: 'task-rename' | 'task-archive' | 'task-delete') {
  const target = row(page, title);
  await target.hover();
  await target.getByTestId('task-menu').click();
  await target.getByTestId(item).click();
}

/** True when two boxes share any pixel. */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) throw new Error('a box to compare is not on screen');
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

test('issue 14: subtasks under their parent, search, rename, archive, delete with a confirmation, the sidebar, and the laptop layout', async ({
  page,
  context,
  llm,
  llmHost,
}) => {
  test.setTimeout(120_000);
  for (let i = 0; i < 8; i++) llm.push(modelFor);
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Write a haiku about SQLite', title: 'Haiku' });
  await createInUi(page, { instruction: 'PARENT-WORK: plan the release', title: 'Release plan' });
  const parentId = (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;

  // The parent waits on its card; its subtask sits indented under it, above the older task.
  await expect(page.getByTestId('tool-request')).toHaveCount(1, { timeout: 20_000 });
  await expect(row(page, 'Count files')).toHaveAttribute('data-depth', '1');
  const childId = (await row(page, 'Count files').getAttribute('data-task-id')) as string;
  await waitForJob(llmHost, childId, 'succeeded');
  expect(await rowTitles(page)).toEqual(['Release plan', 'Count files', 'Haiku']);
  await expect(row(page, 'Release plan')).toHaveAttribute('data-depth', '0');
  await row(page, 'Release plan').getByTestId('task-fold').click();
  expect(await rowTitles(page)).toEqual(['Release plan', 'Haiku']);
  await row(page, 'Release plan').getByTestId('task-fold').click();
  await expect(row(page, 'Count files')).toBeVisible();

  // 1024×700 with the approval card up: the conversation keeps 120 px (the card takes the rest to show what it
  // approves: see untrusted-cards.headless.spec.ts), the card's buttons are in sight (it has the idle composer's
  // place), and a toast stays off them.
  const feed = page.getByTestId('chat-feed');
  const feedHeight = (await feed.boundingBox())?.height ?? 0;
  expect(feedHeight).toBeGreaterThanOrEqual(120);
  await expect(page.getByTestId('approval-cards')).toBeInViewport();
  const approve = page.getByTestId('approval-cards').getByTestId('approve-once');
  await expect(approve).toBeInViewport({ ratio: 1 });
  await page.getByTestId('task-view-title').click();
  await page.keyboard.press('Control+j');
  const toast = page.getByTestId('toast').filter({ hasText: 'No other task waits for you.' });
  await expect(toast).toBeVisible();
  expect(await overlap(toast, approve)).toBe(false);
  expect(await overlap(toast, page.getByTestId('approval-cards').getByTestId('deny'))).toBe(false);

  // A second window sees what this one changes.
  const other = await context.newPage();
  await openUi(other, llmHost);
  await expect(row(other, 'Haiku')).toBeVisible();

  // Search: by title or instruction; a matching subtask keeps its parent.
  const search = page.getByTestId('task-search');
  await search.fill('sqlite');
  expect(await rowTitles(page)).toEqual(['Haiku']);
  await search.fill('COUNT');
  expect(await rowTitles(page)).toEqual(['Release plan', 'Count files']);
  await search.fill('no such words');
  await expect(page.getByTestId('task-list-no-match')).toBeVisible();
  await search.fill('');

  // Rename in place.
  await menu(page, 'Haiku', 'task-rename');
  await page.getByTestId('task-rename-input').fill('Haiku about WAL');
  await page.getByTestId('task-rename-input').press('Enter');
  await expect(row(page, 'Haiku about WAL')).toBeVisible();
  await expect(row(other, 'Haiku about WAL')).toBeVisible();
  const haikuId = (await row(page, 'Haiku about WAL').getAttribute('data-task-id')) as string;
  const renamed = await llmHost.call<{ task: { title: string } }>('GET', `/tasks/${haikuId}`);
  expect(renamed.body.task.title).toBe('Haiku about WAL');

  // Archive: hidden until "Show archived"; brought back from its menu.
  await menu(page, 'Haiku about WAL', 'task-archive');
  await expect(row(page, 'Haiku about WAL')).toHaveCount(0);
  await expect(row(other, 'Haiku about WAL')).toHaveCount(0);
  await page.getByTestId('show-archived').check();
  await expect(row(page, 'Haiku about WAL')).toContainText('archived');
  await menu(page, 'Haiku about WAL', 'task-archive');
  await expect(page.getByTestId('show-archived')).toHaveCount(0);
  await expect(row(page, 'Haiku about WAL')).not.toContainText('archived');

  // Delete asks first; cancelling keeps the task, confirming takes it with its subtask (it only waits, so it may go).
  await menu(page, 'Release plan', 'task-delete');
  const dialog = page.getByTestId('task-delete-dialog');
  await expect(dialog).toContainText('Delete “Release plan”?');
  await expect(dialog).toContainText('Its subtask is deleted with it.');
  await page.getByTestId('task-delete-cancel').click();
  await expect(dialog).toHaveCount(0);
  await expect(row(page, 'Release plan')).toBeVisible();
  await menu(page, 'Release plan', 'task-delete');
  await page.getByTestId('task-delete-confirm').click();
  await expect(dialog).toHaveCount(0);
  expect(await rowTitles(page)).toEqual(['Haiku about WAL']);
  await expect(page.getByTestId('no-task-selected')).toBeVisible();
  await expect(row(other, 'Release plan')).toHaveCount(0);
  await expect(row(other, 'Count files')).toHaveCount(0);
  for (const id of [parentId, childId]) expect((await llmHost.call('GET', `/tasks/${id}`)).status).toBe(404);

  // The sidebar folds away (button or Ctrl+B), gives its width to the task, and stays folded after a reload.
  await row(page, 'Haiku about WAL').getByTestId('task-item').click();
  const view = page.getByTestId('task-view');
  const narrow = (await view.boundingBox())?.width ?? 0;
  await page.getByTestId('toggle-sidebar').click();
  await expect(page.getByTestId('sidebar')).toBeHidden();
  expect((await view.boundingBox())?.width ?? 0).toBeGreaterThan(narrow + 250);
  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await expect(page.getByTestId('sidebar')).toBeHidden();
  await page.keyboard.press('Control+b');
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect(page.getByTestId('toggle-sidebar')).toHaveAttribute('aria-expanded', 'true');
});
