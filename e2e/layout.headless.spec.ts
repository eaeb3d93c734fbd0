// Room for the conversation (issue 23, point 4), at 1280×800 and 1024×700: nothing but the feed scrolls (the page is
// exactly the window), the feed keeps 60% of the window's height beside a command's whole card, which takes the idle
// composer's place, Approve and (after the decision) Send are on screen and clickable, the usage details open in a popover that does not move the composer, the composer
// grows with what is typed up to its limit and then scrolls, and the first-run setup's Save stays on screen however
// long its form grows.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { complete, openUi, runCommand } from './support/ui';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
] as const;

/** The page does not scroll: the document is exactly as tall and wide as the window. */
async function expectNoPageScroll(page: Page) {
  const doc = await page.evaluate(() => {
    const el = document.documentElement;
    return { sh: el.scrollHeight, ch: el.clientHeight, sw: el.scrollWidth, cw: el.clientWidth };
  });
  expect(doc.sh, 'document scrollHeight').toBe(doc.ch);
  expect(doc.sw, 'document scrollWidth').toBe(doc.cw);
}

/** Whole inside the window, and the element at its centre is the element itself (nothing covers it). */
async function expectOnScreen(page: Page, target: Locator) {
  const box = await target.boundingBox();
  if (!box) throw new Error('not rendered');
  const view = page.viewportSize() ?? { width: 0, height: 0 };
  expect(box.y, 'top in the window').toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, 'bottom in the window').toBeLessThanOrEqual(view.height);
  expect(box.x + box.width, 'right edge in the window').toBeLessThanOrEqual(view.width);
  const hit = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return at !== null && (at === el || el.contains(at));
  });
  expect(hit, 'nothing covers it').toBe(true);
}

async function createTask(host: HeadlessHost, title: string): Promise<void> {
  const response = await host.call('POST', '/tasks', { instruction: `Please ${title}.`, title });
  expect(response.status).toBe(201);
}

for (const size of SIZES) {
  const at = `${size.width}×${size.height}`;

  test(`P7.01 P9.17 at ${at} only the feed scrolls, the feed keeps most of the window beside a whole card, usage opens over the chat`, async ({
    page,
    llm,
    llmHost,
  }) => {
    await page.setViewportSize(size);
    const chatter = Array.from({ length: 30 }, (_, i) => `Line ${i + 1} of what the agent found so far.`).join('\n');
    llm.push({ text: chatter, toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] }, runCommand('npm test'));
    await openUi(page, llmHost);
    await createTask(llmHost, 'Run the tests');
    await page.getByTestId('task-item').filter({ hasText: 'Run the tests' }).click();
    const card = page.getByTestId('tool-request');
    await expect(card).toBeVisible({ timeout: 20_000 });

    await expectNoPageScroll(page);
    const feed = await page.getByTestId('chat-feed').boundingBox();
    // A command's card is whole (nothing to scroll to) beside 60% of the window for the feed: it takes the place of
    // the locked composer, which holds nothing and is not in use.
    await expect(card.getByTestId('approval-longer')).toHaveCount(0);
    expect(feed?.height ?? 0, 'the feed with a card up').toBeGreaterThanOrEqual(size.height * 0.6);
    await expect(page.getByTestId('chat-composer')).toBeHidden();
    await expectOnScreen(page, card.getByTestId('approve-once'));

    // The usage details float over the chat: the card stays where it was.
    const approve = card.getByTestId('approve-once');
    const before = await approve.boundingBox();
    await page.getByTestId('usage-chip').click();
    const popover = page.getByTestId('usage-popover');
    await expect(popover).toBeVisible();
    await expect(popover.getByTestId('usage-total')).toBeVisible();
    expect(await approve.boundingBox()).toEqual(before);
    await expectNoPageScroll(page);
    await page.keyboard.press('Escape');
    await expect(popover).toBeHidden();
    await expect(page.getByTestId('usage-chip')).toBeFocused();

    llm.push(complete('success', 'All green.'));
    await card.getByTestId('approve-once').click();
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
    await expectNoPageScroll(page);
    await expectOnScreen(page, page.getByTestId('composer-send'));
    const finished = await page.getByTestId('chat-feed').boundingBox();
    expect(finished?.height ?? 0).toBeGreaterThanOrEqual(size.height * 0.6);
  });

  test(`P7.24 at ${at} the composer grows with the text up to its limit, then scrolls; the page never does`, async ({
    page,
    host,
  }) => {
    await page.setViewportSize(size);
    await createTask(host, 'Write a long note');
    await openUi(page, host);
    await page.getByTestId('task-item').filter({ hasText: 'Write a long note' }).click();
    const input = page.getByTestId('composer-input');
    const one = (await input.boundingBox())?.height ?? 0;
    await input.fill('first\nsecond\nthird\nfourth');
    await expect.poll(async () => (await input.boundingBox())?.height ?? 0).toBeGreaterThan(one + 40);
    await input.fill(Array.from({ length: 60 }, (_, i) => `line ${i}`).join('\n'));
    const tall = await input.evaluate((el) => ({ h: el.clientHeight, sh: el.scrollHeight }));
    expect(tall.h, 'capped at 30% of the window').toBeLessThanOrEqual(size.height * 0.3 + 1);
    expect(tall.sh, 'the rest scrolls inside the field').toBeGreaterThan(tall.h);
    await expectNoPageScroll(page);
    await expectOnScreen(page, page.getByTestId('composer-send'));
    const feed = await page.getByTestId('chat-feed').boundingBox();
    expect(feed?.height ?? 0, 'the feed keeps room').toBeGreaterThan(size.height * 0.3);
  });

  test(`at ${at} the first-run setup's Save stays on screen however long the form grows`, async ({ page, host }) => {
    await page.setViewportSize(size);
    await openUi(page, host);
    await expect(page.getByTestId('first-run-setup')).toBeVisible();
    await page.locator('[data-testid="setup-preset"][data-kind="openai"]').click();
    const save = page.getByTestId('profile-save');
    await expect(save).toBeVisible();
    await expectNoPageScroll(page);
    await expectOnScreen(page, save);
    // A form twice the window's height (a long model list, an error, more fields): Save is still in sight.
    await page
      .getByTestId('first-run-setup')
      .locator('form')
      .evaluate((form, height) => {
        const filler = document.createElement('div');
        filler.style.height = `${height * 2}px`;
        form.prepend(filler);
      }, size.height);
    await expectNoPageScroll(page);
    await expectOnScreen(page, save);
  });
}
