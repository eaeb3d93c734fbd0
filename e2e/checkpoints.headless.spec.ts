// Undo anything, in the browser against a headless host and the scripted model (issue 22): a task of two Sends —
// the first edits a.txt, the second creates c.txt. The task's "Files changed" view lists both with their diffs, and
// "Revert this file" puts one back (and its Undo brings the change back); "Rewind files to here" on Send #2's menu,
// reached by keyboard, removes what Send #2 created (and Undo restores it); "Rewind conversation" folds Send #2 and
// the next request leaves it out (P9.21); "Fork from here" opens a new task linked both ways whose conversation
// stops before that Send; in a git workspace the succeeded job's result shows its commit (P2.21). Every file is
// checked on disk, not only on screen.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { ScriptedLlmServer } from '../test-support/scripted-llm-server';
import { expect, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

const write = (file: string, content: string) => ({
  toolCalls: [{ name: 'write_file', arguments: { path: file, content } }],
});

/** Send #1 changes a.txt ("one" → "two"); Send #2 creates c.txt. Returns the workspace. */
async function twoSends(page: Page, llm: ScriptedLlmServer, host: HeadlessHost): Promise<string> {
  const workspace = fs.realpathSync(host.workspace);
  fs.writeFileSync(path.join(workspace, 'a.txt'), 'one\n');
  fs.writeFileSync(path.join(workspace, 'b.txt'), 'keep\n');
  llm.push(write('a.txt', 'two\n'), complete('success', 'First done.'));
  await openUi(page, host);
  await createInUi(page, { instruction: 'FIRST: change a.txt', title: 'Undo me' });
  await expect(result(page, 'First done.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded');
  llm.push(write('c.txt', 'new\n'), complete('success', 'Second done.'));
  await page.getByTestId('composer-input').fill('SECOND: add c.txt');
  await page.getByTestId('composer-send').click();
  await expect(result(page, 'Second done.')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded');
  expect(fs.readFileSync(path.join(workspace, 'c.txt'), 'utf8')).toBe('new\n');
  return workspace;
}

const result = (page: Page, text: string) =>
  page.locator('[data-testid="chat-message"][data-kind="result"]', { hasText: text });
const sendMenu = (page: Page, n: number) => page.locator(`[data-testid="send-menu"][data-send="${n}"]`);
/**
 * Brings Send #n's header into view as a reader does, with the wheel (the feed follows the latest text until the
 * reader scrolls; a scroll made by a script does not count), and returns its menu button.
 */
async function scrollToSend(page: Page, n: number) {
  const button = sendMenu(page, n);
  await page.getByTestId('chat-feed').hover();
  await expect(async () => {
    const feed = await page.getByTestId('chat-feed').boundingBox();
    const box = (await button.isVisible()) ? await button.boundingBox() : null;
    if (box && feed && box.y >= feed.y && box.y + box.height <= feed.y + feed.height) return;
    // Which way: the header itself when it is rendered, else the Sends that are (a slow page may overshoot).
    let down: boolean;
    if (box && feed) down = box.y + box.height > feed.y + feed.height;
    else {
      const shown = await page
        .locator('[data-testid="send-menu"]')
        .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-send'))));
      down = shown.length > 0 && Math.max(...shown) < n;
    }
    await page.mouse.wheel(0, down ? 150 : -150);
    throw new Error(`Send #${n} is not in view yet`);
  }).toPass();
  return button;
}

const sendBlock = (page: Page, n: number) =>
  page.locator(`[data-testid="feed-invoke-block"]:has([data-testid="feed-invoke"][data-send="${n}"])`);

test('the files-changed view lists every job’s files with diffs; Revert this file, then Undo revert', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = await twoSends(page, llm, llmHost);
  const a = path.join(workspace, 'a.txt');

  // Under each call, the files its run changed as the checkpoints recorded them; nothing under the Sends (no one
  // else changed a file between them).
  const byCall = (file: string) =>
    page
      .locator('[data-testid="step-tool"][data-tool="write_file"]', { hasText: file })
      .getByTestId('checkpoint-files');
  await expect(byCall('a.txt')).toHaveText('Changed 1 file');
  // Rows may still move while the feed measures them: a click that missed is made again, one that opened it is not.
  const toggle = byCall('a.txt').getByTestId('checkpoint-files-toggle');
  const listed = byCall('a.txt').locator('[data-testid="checkpoint-file"][data-path="a.txt"]');
  await expect(async () => {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await expect(listed).toBeVisible({ timeout: 1000 });
  }).toPass();
  await expect(listed).toHaveAttribute('data-change', 'modified');
  await expect(byCall('c.txt')).toHaveText('Changed 1 file');
  await expect(sendBlock(page, 2).getByTestId('checkpoint-files')).toHaveCount(0);

  await page.getByTestId('task-changes-open').click();
  const view = page.getByTestId('task-changes');
  await expect(view).toHaveAttribute('data-load', 'ready');
  await expect(page.getByTestId('task-changes-close')).toBeFocused();
  const changes = view.getByTestId('task-change');
  await expect(changes).toHaveCount(2);
  const aRow = view.locator('[data-testid="task-change"][data-path="a.txt"]');
  await expect(aRow).toHaveAttribute('data-change', 'modified');
  await expect(view.locator('[data-testid="task-change"][data-path="c.txt"]')).toHaveAttribute('data-change', 'added');
  await aRow.getByTestId('task-change-toggle').click();
  const diff = aRow.getByTestId('task-change-diff');
  await expect(diff.locator('tr[data-kind="removed"]')).toHaveText([/one/]);
  await expect(diff.locator('tr[data-kind="added"]')).toHaveText([/two/]);

  // Asked first: keeping it writes nothing.
  await aRow.getByTestId('task-change-revert').click();
  await expect(aRow).toContainText('checkpointed first, so this can be undone');
  await expect(aRow.getByTestId('task-change-revert-cancel')).toBeFocused();
  await aRow.getByTestId('task-change-revert-cancel').click();
  expect(fs.readFileSync(a, 'utf8')).toBe('two\n');

  await aRow.getByTestId('task-change-revert').click();
  await aRow.getByTestId('task-change-revert-confirm').click();
  const notice = view.getByTestId('restore-notice');
  await expect(notice).toContainText('Reverted a.txt');
  await expect.poll(() => fs.readFileSync(a, 'utf8')).toBe('one\n');
  await expect(aRow).toHaveCount(0);
  await expect(changes).toHaveCount(1);
  expect(fs.readFileSync(path.join(workspace, 'c.txt'), 'utf8')).toBe('new\n');

  await notice.getByTestId('restore-undo').click();
  await expect.poll(() => fs.readFileSync(a, 'utf8')).toBe('two\n');
  await expect(changes).toHaveCount(2);
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await expect(page.getByTestId('task-changes-open')).toBeFocused();
  llm.expectEmpty();
});

test('rewind files from Send #2’s menu by keyboard removes what it created; Undo rewind brings it back (1024×700)', async ({
  page,
  llm,
  llmHost,
}) => {
  await page.setViewportSize({ width: 1024, height: 700 });
  const workspace = await twoSends(page, llm, llmHost);
  const c = path.join(workspace, 'c.txt');
  // The person's own edit since: shown before the rewind overwrites it, and kept by the undo.
  const b = path.join(workspace, 'b.txt');
  fs.writeFileSync(b, 'mine\n');

  const button = await scrollToSend(page, 2);
  await button.focus();
  await page.keyboard.press('Enter');
  const items = page.getByTestId('send-menu-items');
  await expect(items.getByRole('menuitem')).toHaveText([
    'Rewind files to here',
    'Rewind conversation to here',
    'Rewind both',
    'Fork from here',
  ]);
  await expect(items.getByRole('menuitem').first()).toBeFocused();
  // The menu lies inside the window, clear of the header's button.
  const box = await items.boundingBox();
  const buttonBox = await button.boundingBox();
  expect(box && buttonBox).toBeTruthy();
  if (box && buttonBox) {
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(700);
    expect(box.x + box.width).toBeLessThanOrEqual(1024);
    expect(box.y >= buttonBox.y + buttonBox.height || box.y + box.height <= buttonBox.y).toBe(true);
  }
  await page.keyboard.press('ArrowDown');
  await expect(items.getByRole('menuitem').nth(1)).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(items).toHaveCount(0);
  await expect(button).toBeFocused();

  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('rewind-dialog');
  await expect(dialog).toHaveAttribute('data-mode', 'files');
  await expect(dialog).toContainText('Rewind files to the start of Send #2?');
  await expect(dialog).toContainText('checkpointed first, so this rewind can itself be undone');
  await expect(page.getByTestId('rewind-dialog-cancel')).toBeFocused();
  // A dry run first: what it would write back and remove, and the person's edit it would overwrite.
  await expect(dialog.getByTestId('rewind-preview')).toHaveAttribute('data-load', 'ready');
  await expect(dialog.getByTestId('rewind-preview-removed')).toContainText('c.txt');
  await expect(dialog.getByTestId('rewind-preview-restored')).toContainText('b.txt');
  await expect(dialog.getByTestId('rewind-preview-edited')).toContainText('b.txt');
  expect(fs.existsSync(c)).toBe(true);
  expect(fs.readFileSync(b, 'utf8')).toBe('mine\n');
  await page.getByTestId('rewind-dialog-confirm').click();
  await expect(dialog).toHaveCount(0);

  const notice = page.getByTestId('restore-notice');
  await expect(notice).toContainText('Rewound to the start of Send #2.');
  await expect(notice.getByTestId('restore-removed')).toContainText('c.txt');
  await expect.poll(() => fs.existsSync(c)).toBe(false);
  expect(fs.readFileSync(path.join(workspace, 'a.txt'), 'utf8')).toBe('two\n');
  await expect(notice.getByTestId('restore-edited')).toContainText('b.txt');
  expect(fs.readFileSync(b, 'utf8')).toBe('keep\n');
  // Files only: the conversation is not folded.
  await expect(sendBlock(page, 2)).toHaveAttribute('data-rewound', 'false');

  await notice.getByTestId('restore-undo').click();
  await expect.poll(() => (fs.existsSync(c) ? fs.readFileSync(c, 'utf8') : null)).toBe('new\n');
  expect(fs.readFileSync(b, 'utf8')).toBe('mine\n');
  llm.expectEmpty();
});

test('P9.21 rewind the conversation to Send #2: it is folded and marked, and the next request leaves it out', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = await twoSends(page, llm, llmHost);
  await (await scrollToSend(page, 2)).click();
  await page.getByTestId('send-menu-conversation').click();
  const dialog = page.getByTestId('rewind-dialog');
  await expect(dialog).toContainText('never sent to the model again');
  await expect(dialog).toContainText('Files in the workspace folder are not touched.');
  await page.getByTestId('rewind-dialog-confirm').click();

  const block = sendBlock(page, 2);
  await expect(block).toHaveAttribute('data-rewound', 'true');
  await expect(block.getByTestId('feed-rewound')).toHaveText('Rewound — not sent to the model');
  await expect(result(page, 'Second done.')).toHaveCount(0);
  await expect(result(page, 'First done.')).toBeVisible();
  expect(fs.readFileSync(path.join(workspace, 'c.txt'), 'utf8')).toBe('new\n');
  // Still there to read.
  const fold = page.getByTestId('feed-rewound-fold');
  await fold.getByRole('button').click();
  await expect(result(page, 'Second done.')).toBeVisible();

  llm.push(complete('success', 'Third done.'));
  await page.getByTestId('composer-input').fill('THIRD: carry on');
  await page.getByTestId('composer-send').click();
  await expect(result(page, 'Third done.')).toBeVisible({ timeout: 20_000 });
  const sent = messagesOf(llm.requests.at(-1) ?? ({} as never))
    .map(textOf)
    .join('\n');
  expect(sent).toContain('FIRST: change a.txt');
  expect(sent).toContain('THIRD: carry on');
  expect(sent).not.toContain('SECOND: add c.txt');
  expect(sent).not.toContain('Second done.');
  llm.expectEmpty();
});

test('P9.21 fork from Send #2 with an instruction: a new task linked both ways, its conversation before that Send', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = await twoSends(page, llm, llmHost);
  const original = await page.getByTestId('task-view').getAttribute('data-task-id');
  await (await scrollToSend(page, 2)).click();
  await page.getByTestId('send-menu-fork').click();
  const dialog = page.getByTestId('fork-dialog');
  await expect(dialog).toContainText('Files are not touched');
  llm.push(complete('success', 'Fork done.'));
  await page.getByTestId('fork-instruction').fill('FORKED: another way');
  await page.getByTestId('fork-dialog-confirm').click();
  await expect(dialog).toHaveCount(0);

  await expect(page.getByTestId('task-view')).not.toHaveAttribute('data-task-id', original ?? '');
  const link = page.getByTestId('task-forked-from-link');
  await expect(link).toHaveText('Forked from Undo me at Send #2');
  await expect(result(page, 'Fork done.')).toBeVisible({ timeout: 20_000 });
  const sent = messagesOf(llm.requests.at(-1) ?? ({} as never))
    .map(textOf)
    .join('\n');
  expect(sent).toContain('FIRST: change a.txt');
  expect(sent).toContain('FORKED: another way');
  expect(sent).not.toContain('SECOND: add c.txt');
  // Files untouched by the fork itself.
  expect(fs.readFileSync(path.join(workspace, 'c.txt'), 'utf8')).toBe('new\n');
  const fork = await page.getByTestId('task-view').getAttribute('data-task-id');

  await link.click();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', original ?? '');
  const forks = page.getByTestId('task-fork-link');
  await expect(forks).toHaveCount(1);
  await expect(forks).toHaveAttribute('data-task-id', fork ?? '');
  await expect(forks).toContainText('(at Send #2)');
  llm.expectEmpty();
});

test('P2.21 in a git workspace, the chat shows the commit the succeeded job made, once', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = fs.realpathSync(llmHost.workspace);
  const git = (...args: string[]) => execFileSync('git', ['-C', workspace, ...args], { encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'person@example.com');
  git('config', 'user.name', 'Person');
  fs.writeFileSync(path.join(workspace, 'a.txt'), 'one\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'start');
  llm.push(write('a.txt', 'two\n'), complete('success', 'Edited.'));
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Change a.txt', title: 'Commit me' });
  await expect(result(page, 'Edited.')).toBeVisible({ timeout: 20_000 });
  // The commit follows the job's end.
  await expect.poll(() => git('log', '-1', '--format=%s'), { timeout: 20_000 }).not.toBe('start');
  const head = git('rev-parse', '--short', 'HEAD');
  // Said by the host's comment, with the hash git has; the result does not say it a second time.
  await expect(page.getByTestId('chat-message').filter({ hasText: `Committed ${head}` })).toHaveCount(1);
  await expect(result(page, 'Edited.').getByTestId('job-commit')).toHaveCount(0);
  expect(git('show', 'HEAD:a.txt')).toBe('two');
  llm.expectEmpty();
});

test('Settings’ Checkpoints: saved to settings.json with the notifications kept; a bad number changes nothing and says which', async ({
  page,
  host,
}) => {
  const file = path.join(host.dataDir, 'settings.json');
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('checkpoint-settings');
  await expect(section.getByTestId('checkpoints-usage')).toContainText('Disk used by checkpoints');
  // A notification turned off first: saving checkpoints must not put it back.
  await page.getByTestId('notifications-kind-succeeded').uncheck();
  await expect(page.getByTestId('notifications-outcome')).toHaveAttribute('data-ok', 'true');

  await section.getByTestId('checkpoints-maxFileBytes').fill('2.5');
  await section.getByTestId('checkpoints-keepPerTask').fill('50');
  await section.getByTestId('checkpoints-keepDays').fill('0');
  await section.getByTestId('checkpoints-commit').uncheck();
  await section.getByTestId('checkpoints-save').click();
  await expect(section.getByTestId('checkpoints-outcome')).toHaveAttribute('data-ok', 'true');
  const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
  expect(saved.checkpoints).toEqual({
    enabled: true,
    maxFileBytes: 2.5 * 1024 * 1024,
    keepPerTask: 50,
    keepDays: 0,
    commitOnSuccess: false,
  });
  expect(saved.notifications.kinds.succeeded).toBe(false);

  // Below the minimum the host keeps: refused, naming the field; the file is as it was.
  const before = fs.readFileSync(file, 'utf8');
  await section.getByTestId('checkpoints-keepPerTask').fill('3');
  await section.getByTestId('checkpoints-save').click();
  await expect(section.getByTestId('checkpoints-outcome')).toHaveAttribute('data-ok', 'false');
  await expect(section.getByTestId('checkpoints-outcome')).toContainText('keepPerTask');
  expect(fs.readFileSync(file, 'utf8')).toBe(before);

  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('checkpoints-keepPerTask')).toHaveValue('50');
  await expect(page.getByTestId('checkpoints-commit')).not.toBeChecked();
});

test('rewinds are refused while a job of the task is active, with the reason in the menu; fork stays offered', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(complete('needs_user_input', 'Which colour?'));
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Paint it', title: 'Waiting' });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'waiting_human', { timeout: 20_000 });
  await (await scrollToSend(page, 1)).click();
  const items = page.getByTestId('send-menu-items');
  for (const mode of ['files', 'conversation', 'both']) {
    await expect(items.getByTestId(`send-menu-${mode}`)).toHaveAttribute('aria-disabled', 'true');
  }
  await expect(items.getByTestId('send-menu-fork')).not.toHaveAttribute('aria-disabled', 'true');
  await expect(items.getByTestId('send-menu-reason')).toHaveText(
    'This task is running: rewinding waits until it ends or is cancelled.',
  );
  // Still reachable by keyboard (a disabled menu item keeps the focus, so its reason is read), but it opens nothing.
  await expect(items.getByTestId('send-menu-files')).toBeFocused();
  await expect(items.getByTestId('send-menu-files')).toHaveAttribute('aria-describedby', /.+/);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('rewind-dialog')).toHaveCount(0);
  llm.expectEmpty();
});
