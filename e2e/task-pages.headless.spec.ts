// The task list by pages (issue 28 point 3), in the browser against a headless host with 130 finished tasks and an
// older one that waits for the person: the window asks for one page of the list and one of the waiting tasks, never
// everything; scrolling to the list's end loads the next page until the last; a search finds a task whose page is
// not loaded yet; the old waiting task is in the notification center from the start.
import { execFileSync } from 'node:child_process';
import { expect, test } from './support/fixtures';
import { APP_ROOT, type HeadlessHost } from './support/headless-host';
import { openUi } from './support/ui';

/** Tasks written into the host's DB by another process (see seed-tasks-cli.ts); their ids, oldest first. */
function seed(host: HeadlessHost, count: number, status: string, from: number): string[] {
  const out = execFileSync(
    'npx',
    ['tsx', 'test-support/seed-tasks-cli.ts', host.dataDir, host.workspace, String(count), status, String(from)],
    { cwd: APP_ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out) as string[];
}

test.use({ viewport: { width: 1280, height: 800 } });

test('issue 28: the list loads a page and the waiting tasks, the next page as it scrolls, and a search beyond the loaded pages', async ({
  page,
  host,
}) => {
  test.setTimeout(120_000);
  const now = Date.now();
  const [waiting] = seed(host, 1, 'waiting_human', now - 10_000_000);
  seed(host, 130, 'succeeded', now - 200_000);
  const listed: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/local/tasks') listed.push(decodeURIComponent(url.search));
  });

  await openUi(page, host);
  const rows = page.getByTestId('task-row');
  await expect(rows).toHaveCount(51);
  await expect(rows.first()).toContainText('Old succeeded task #129.');
  await expect(page.locator(`[data-testid="task-row"][data-task-id="${waiting}"]`)).toHaveCount(1);
  // The window's start and its stream's first open each load the list: both only these two pages.
  expect(new Set(listed)).toEqual(new Set(['?limit=50', '?limit=50&status=waiting_human,failed']));
  await expect(page.getByTestId('notification-count')).toHaveText('1');

  // A search reaches a task of a page not loaded yet.
  await page.getByTestId('task-search').fill('#5.');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Old succeeded task #5.');
  expect(listed.at(-1)).toBe('?limit=50&q=#5.');
  await page.getByTestId('task-search').fill('');

  // The list's end in view loads the next page, with the cursor of the one before, until the last.
  const more = page.getByTestId('task-list-more');
  // One page per time the end comes into view (the searched task #5 is among the rows already).
  await more.scrollIntoViewIfNeeded();
  await expect(rows).toHaveCount(102);
  await expect(more).toHaveAttribute('data-state', 'idle');
  expect(await more.isVisible()).toBe(true);
  await more.scrollIntoViewIfNeeded();
  await expect(more).toHaveCount(0);
  await expect(rows).toHaveCount(131);
  const pages = listed.filter((search) => search.includes('cursor='));
  expect(pages).toHaveLength(2);
  await expect(rows.last()).toHaveAttribute('data-task-id', waiting as string);
});
