// The chat feed is virtualized and paged (issue 6): a task of 10,000 comments loads its latest 200 and keeps only the
// rows near the viewport in the DOM; scrolling to the top loads earlier pages without moving what the reader sees,
// until the first entry; streamed text keeps the feed at its bottom, a reader who scrolled up is not moved, and
// "jump to latest" brings them back.
import { execFileSync } from 'node:child_process';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { APP_ROOT, type HeadlessHost } from './support/headless-host';
import { openUi } from './support/ui';

interface Seeded {
  taskId: string;
  firstId: string;
  lastId: string;
}

/** A finished task with `entries` comments, written into the host's DB by another process (see seed-feed-cli.ts). */
function seed(host: HeadlessHost, title: string, entries: number): Seeded {
  const out = execFileSync(
    'npx',
    ['tsx', 'test-support/seed-feed-cli.ts', host.dataDir, host.workspace, title, String(entries)],
    { cwd: APP_ROOT, encoding: 'utf8' },
  );
  return JSON.parse(out) as Seeded;
}

async function openTask(page: Page, host: HeadlessHost, seeded: Seeded): Promise<void> {
  await openUi(page, host);
  await page.locator(`[data-testid="task-item"][data-task-id="${seeded.taskId}"]`).click();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', seeded.taskId);
}

/** Pixels between the feed's bottom and the bottom of what it shows. */
const gapBelow = (feed: Locator) => feed.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);

/** The API paths the page asked for about `taskId`, recorded from the time of the call. */
function recordRequests(page: Page, taskId: string): string[] {
  const seen: string[] = [];
  const prefix = `/api/local/tasks/${taskId}`;
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith(prefix)) seen.push(pathname.slice(prefix.length) || '/');
  });
  return seen;
}

/** The number of comments not loaded yet, as the feed says. */
const olderOf = async (feed: Locator) => Number(await feed.getAttribute('data-older'));

test('issue 6: with 10,000 entries the feed loads the latest 200, holds only the rows near its viewport, and pages back to the first', async ({
  page,
  host,
}) => {
  test.setTimeout(180_000);
  const seeded = seed(host, 'Ten thousand', 10_000);
  const asked = recordRequests(page, seeded.taskId);
  const recent = page.waitForResponse((r) => r.url().endsWith(`/tasks/${seeded.taskId}/recent`));
  await openTask(page, host, seeded);

  // The first load is the latest page: 200 comments, and the count of the 9,800 before them; never every comment.
  const answer = (await (await recent).json()) as { comments: { id: string }[]; olderCount: number };
  expect(answer.comments).toHaveLength(200);
  expect(answer.comments.at(-1)?.id).toBe(seeded.lastId);
  expect(answer.olderCount).toBe(9_800);
  expect(asked).not.toContain('/');

  // It opens at the latest entry.
  const feed = page.getByTestId('chat-feed');
  const first = page.locator(`[data-comment-id="${seeded.firstId}"]`);
  const last = page.locator(`[data-comment-id="${seeded.lastId}"]`);
  await expect(last).toBeInViewport();
  await expect(last.getByTestId('message-body')).toContainText('Entry #9999 (the last)');
  await expect(feed).toHaveAttribute('role', 'log');
  await expect(feed).toHaveAttribute('data-rows', '201');
  await expect(feed).toHaveAttribute('data-older', '9800');
  await expect(page.getByTestId('feed-jump-latest')).toHaveCount(0);

  // Far fewer rows than entries are in the DOM; each says where it stands in the whole conversation.
  const rows = feed.getByTestId('feed-row');
  expect(await rows.count()).toBeLessThan(60);
  expect(await page.getByTestId('chat-message').count()).toBeLessThan(60);
  await expect(rows.last()).toHaveAttribute('aria-setsize', '10000');
  await expect(rows.last()).toHaveAttribute('aria-posinset', '10000');
  await expect(first).toHaveCount(0);

  // Near the top, the page before loads under "Loading earlier messages…", and what the reader sees does not move.
  // The answer is held back until the rows on screen have been noted.
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/chat/before/**', async (route) => {
    await held;
    await route.continue();
  });
  await feed.evaluate((el) => el.scrollTo({ top: 0 }));
  const loading = page.getByTestId('feed-older');
  await expect(loading).toHaveAttribute('data-load', 'loading');
  await expect(loading).toHaveText('Loading earlier messages…');
  await expect(loading).toHaveAttribute('role', 'status');
  const seen = feed.locator('[data-testid="feed-row"][data-index="1"]');
  const seenKey = (await seen.getAttribute('data-key')) as string;
  const seenY = (await seen.boundingBox())?.y as number;
  release();
  await expect(feed).toHaveAttribute('data-older', '9600');
  await page.unroute('**/chat/before/**');
  const kept = page.locator(`[data-testid="feed-row"][data-key="${seenKey}"]`);
  await expect(kept).toHaveAttribute('data-index', '201');
  expect(Math.abs(((await kept.boundingBox())?.y as number) - seenY)).toBeLessThan(2);
  await expect(kept).toBeInViewport();
  expect(await feed.evaluate((el) => el.scrollTop)).toBeGreaterThan(1000);
  await expect(feed).toHaveAttribute('data-pinned', 'false');
  expect(asked.filter((a) => a.startsWith('/chat/before/'))).toEqual([`/chat/before/${answer.comments[0]?.id}`]);

  // Scrolled to the top again and again, every page comes, until the very first entry shows.
  for (let older = await olderOf(feed); older > 0; ) {
    await feed.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => olderOf(feed)).toBeLessThan(older);
    older = await olderOf(feed);
  }
  await expect(feed).toHaveAttribute('data-rows', '10000');
  await expect(page.getByTestId('feed-older')).toHaveCount(0);
  await feed.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(first).toBeInViewport();
  await expect(first.getByTestId('message-body')).toHaveText('Entry #0: keep a long conversation going.');
  await expect(rows.first()).toHaveAttribute('aria-posinset', '1');
  await expect(last).toHaveCount(0);
  expect(await rows.count()).toBeLessThan(60);
  expect(asked.filter((a) => a.startsWith('/chat/before/'))).toHaveLength(49);
  expect(asked).not.toContain('/');

  // The button brings the reader back to the latest, and keeps the focus in the feed.
  await page.getByTestId('feed-jump-latest').click();
  await expect(last).toBeInViewport();
  await expect(page.getByTestId('feed-jump-latest')).toHaveCount(0);
  await expect(feed).toBeFocused();

  // The keyboard reaches both ends too: Home and End on the focused feed.
  await page.keyboard.press('Home');
  await expect(first).toBeInViewport();
  await page.keyboard.press('End');
  await expect(last).toBeInViewport();
  await expect(feed).toHaveAttribute('data-pinned', 'true');

  // Hidden behind the Activity tab and shown again, it is still at the latest entry.
  await page.getByTestId('tab-activity').click();
  await expect(feed).toBeHidden();
  await page.getByTestId('tab-chat').click();
  await expect(last).toBeInViewport();
});

test('issue 6: an earlier page that fails to load is offered again with "Load earlier"', async ({ page, host }) => {
  const seeded = seed(host, 'Four hundred', 400);
  await page.route('**/chat/before/**', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: '{"error":{"code":"unavailable","message":"x"}}',
    }),
  );
  await openTask(page, host, seeded);
  const feed = page.getByTestId('chat-feed');
  await expect(feed).toHaveAttribute('data-older', '200');
  await feed.evaluate((el) => el.scrollTo({ top: 0 }));
  const older = page.getByTestId('feed-older');
  await expect(older).toHaveAttribute('data-load', 'error');
  await expect(older).toContainText('Earlier messages could not be loaded.');
  await page.unroute('**/chat/before/**');
  await page.getByTestId('feed-load-older').click();
  await expect(feed).toHaveAttribute('data-older', '0');
  await feed.evaluate((el) => el.scrollTo({ top: 0 }));
  await expect(page.locator(`[data-comment-id="${seeded.firstId}"]`)).toBeInViewport();
});

const PARAGRAPHS = Array.from(
  { length: 24 },
  (_, i) => `Paragraph ${i}: the feed follows this text to the bottom while it arrives, a line at a time.`,
).join('\n\n');

test('issue 6: streamed text keeps the feed at the bottom; scrolled up, the reader stays put until they jump back', async ({
  page,
  llm,
  llmHost,
}) => {
  const seeded = seed(llmHost, 'Pinned', 400);
  // 24 chunks 600 ms apart: the text grows for about 14 s.
  llm.push({
    text: PARAGRAPHS,
    textChunks: 24,
    chunkDelayMs: 600,
    toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Streamed it all.' } }],
  });
  await openTask(page, llmHost, seeded);
  const feed = page.getByTestId('chat-feed');
  await expect(page.locator(`[data-comment-id="${seeded.lastId}"]`)).toBeInViewport();

  const sent = await llmHost.call('POST', `/tasks/${seeded.taskId}/comments`, { body: 'Tell me more.' });
  expect(sent.status).toBe(201);
  // A long answer spans several rows; the last one is the part still growing.
  const text = page.getByTestId('stream-text').last();
  await expect(text).toContainText('Paragraph 1');
  // The movement the job entered is marked above its AgentTurn.
  await expect(page.getByTestId('feed-movement')).toHaveAttribute('data-movement', 'work');

  // While the text grows, the feed stays at its bottom.
  for (let i = 0; i < 3; i++) {
    const before = (await text.textContent()) ?? '';
    await expect(text).not.toHaveText(before);
    expect(await gapBelow(feed)).toBeLessThan(2);
  }
  await expect(page.getByTestId('feed-jump-latest')).toHaveCount(0);

  // The reader scrolls up: the feed lets go, and the text arriving below does not move what they read.
  await feed.hover();
  await page.mouse.wheel(0, -500);
  await expect(page.getByTestId('feed-jump-latest')).toBeVisible();
  await expect(feed).toHaveAttribute('data-pinned', 'false');
  // The wheel's scroll has come to rest: the position held for a run of animation frames.
  await feed.evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        let top = el.scrollTop;
        let still = 0;
        const frame = () => {
          still = el.scrollTop === top ? still + 1 : 0;
          top = el.scrollTop;
          if (still >= 10) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
  const readTop = await feed.evaluate((el) => el.scrollTop);
  const anchor = page.getByTestId('feed-row').first();
  const anchorKey = await anchor.getAttribute('data-key');
  const anchorY = (await anchor.boundingBox())?.y;
  for (let i = 0; i < 2; i++) {
    const before = (await text.textContent()) ?? '';
    await expect(text).not.toHaveText(before);
    expect(await feed.evaluate((el) => el.scrollTop)).toBe(readTop);
    expect(await page.locator(`[data-key="${anchorKey}"]`).boundingBox()).toMatchObject({ y: anchorY });
    expect(await gapBelow(feed)).toBeGreaterThan(100);
  }

  // Jump to latest: at the bottom again, and following the text from there.
  await page.getByTestId('feed-jump-latest').click();
  await expect(page.getByTestId('feed-jump-latest')).toHaveCount(0);
  await expect.poll(() => gapBelow(feed)).toBeLessThan(2);
  const before = (await text.textContent()) ?? '';
  await expect(text).not.toHaveText(before);
  expect(await gapBelow(feed)).toBeLessThan(2);

  // The result replaces the stream, at the bottom of the feed.
  const result = page.locator('[data-testid="chat-message"][data-kind="result"]', { hasText: 'Streamed it all.' });
  await expect(result).toBeInViewport({ timeout: 30_000 });
  await expect(page.getByTestId('job-stream')).toHaveCount(0);

  // P9.18 the follow-up's Invoke is headed "Send #1" (the seeded job had none), right before the comment that sent it.
  const header = page.getByTestId('feed-invoke');
  await expect(header).toHaveAttribute('data-kind', 'UserSend');
  await expect(header).toContainText('Send #1');
  const next = page.locator('[data-testid="feed-row"]:has([data-testid="feed-invoke"]) + [data-testid="feed-row"]');
  await expect(next.getByTestId('message-body')).toHaveText('Tell me more.');
  llm.expectEmpty();
});
