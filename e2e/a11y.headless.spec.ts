// Accessibility (issue 23, point 9) in the built renderer against a headless host: axe-core finds no serious or
// critical violation (text contrast included) with no task, while an answer streams, with an approval card up and
// once the task has finished, in the light and the dark theme; every dialog keeps Tab inside it and gives the focus
// back to what opened it; a card that appears is announced in a live region that names it, and Ctrl+G takes the
// focus to its Approve button (or to the answer of a question) from wherever the person is typing.
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { complete, openUi, runCommand } from './support/ui';

/** axe-core's WCAG 2.1 A and AA rules; what it finds serious or critical, one line each (empty when none). */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const where = v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')} (${n.failureSummary?.split('\n')[1] ?? ''})`);
      return `${v.id} [${v.impact}] ×${v.nodes.length}: ${where.join('; ')}`;
    });
}

async function selectTask(page: Page, host: HeadlessHost, title: string): Promise<void> {
  const created = await host.call('POST', '/tasks', { instruction: `Please ${title}.`, title });
  expect(created.status).toBe(201);
  await page.getByTestId('task-item').filter({ hasText: title }).click();
  await expect(page.getByTestId('task-view-title')).toHaveText(title);
}

const ANSWER = [
  'All **green** now. The fix:',
  '',
  '| file | change |',
  '| --- | --- |',
  '| `src/date.ts` | uses UTC |',
  '',
  '```ts',
  'export const day = (d: Date) => d.toISOString().slice(0, 10);',
  '```',
].join('\n');

for (const theme of ['light', 'dark'] as const) {
  test(`P7.16 P7.01 P7.15 axe-core: no serious or critical violation with no task, streaming, a card up and finished (${theme})`, async ({
    page,
    llm,
    llmHost,
  }) => {
    // axe-core reads the whole page four times: slow on a busy machine.
    test.slow();
    await page.addInitScript((chosen) => localStorage.setItem('maestro.theme', chosen), theme);
    await openUi(page, llmHost);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expect(page.getByTestId('no-task-selected')).toBeVisible();
    expect(await seriousViolations(page), 'no task').toEqual([]);

    const thinking = Array.from({ length: 40 }, (_, i) => `Reading file ${i + 1} of the project.`).join(' ');
    // Streamed over 7 s, so that axe-core reads the page while it streams.
    llm.push({
      text: thinking,
      textChunks: 60,
      chunkDelayMs: 120,
      toolCalls: [{ name: 'run_command', arguments: { command: 'npm test' } }],
    });
    await selectTask(page, llmHost, 'Fix the date test');
    await expect(page.getByTestId('llm-state')).toHaveAttribute('data-state', 'streaming', { timeout: 20_000 });
    expect(await seriousViolations(page), 'streaming').toEqual([]);

    const card = page.getByTestId('tool-request');
    await expect(card).toBeVisible({ timeout: 60_000 });
    expect(await seriousViolations(page), 'approval card').toEqual([]);

    llm.push({ text: ANSWER, toolCalls: [{ name: 'complete', arguments: { status: 'success', message: ANSWER } }] });
    await card.getByTestId('approve-once').click();
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
    await expect(page.locator('[data-testid="chat-message"][data-kind="result"] table')).toBeVisible();
    expect(await seriousViolations(page), 'finished').toEqual([]);
  });
}

test('P7.01 a card that appears is announced by name, and Ctrl+G from the composer focuses its Approve', async ({
  page,
  llm,
  llmHost,
}) => {
  test.slow();
  // The model asks after a moment: the person is in the composer when the card comes (which then stays, locked).
  llm.push({ ...runCommand('npm run build'), delayMs: 2500 });
  await openUi(page, llmHost);
  const announcer = page.getByTestId('decision-announcer');
  await selectTask(page, llmHost, 'Build it');
  await expect(announcer).toHaveAttribute('role', 'status');
  await page.getByTestId('composer-input').focus();
  await expect(page.getByTestId('tool-request')).toBeVisible({ timeout: 20_000 });
  await expect(announcer).toHaveText('Approval needed: run_command. Ctrl+G goes to it.');

  // From the composer, where the person types: one key, and Enter approves.
  await expect(page.getByTestId('composer-input')).toBeFocused();
  await page.keyboard.press('Control+g');
  const approve = page.getByTestId('tool-request').getByTestId('approve-once');
  await expect(approve).toBeFocused();
  llm.push(complete('needs_user_input', 'Which colour should the fence be?'));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tool-request')).toHaveCount(0);

  // A question is announced with its words; the key goes to where the answer is written.
  await expect(announcer).toHaveText('The agent asks: Which colour should the fence be? Ctrl+G goes to the answer.', {
    timeout: 20_000,
  });
  await page.getByTestId('tab-chat').focus();
  await page.keyboard.press('Control+g');
  await expect(page.getByTestId('composer-input')).toBeFocused();

  // The key is listed in the help.
  await page.getByTestId('open-shortcuts').click();
  const row = page.getByTestId('shortcut-help').locator('[data-shortcut="focusDecision"]');
  await expect(row).toContainText('Go to the request or question that waits for you');
  await expect(row.getByTestId('shortcut-keys')).toHaveText('CtrlG');
});

/** The open modal dialog holds the focus. */
const focusInDialog = (page: Page) =>
  page.evaluate(() => {
    const open = document.querySelector('dialog[open]');
    // The dialog itself when nothing in it takes the focus (an empty notification list).
    return open?.contains(document.activeElement) ?? false;
  });

/** Focuses the first or last place Tab stops at in the open dialog. */
const focusEnd = (page: Page, end: 'first' | 'last') =>
  page.evaluate((which) => {
    const dialog = document.querySelector('dialog[open]');
    const stops = [
      ...(dialog?.querySelectorAll<HTMLElement>(
        'a[href], button:not(:disabled), input:not(:disabled), select, textarea',
      ) ?? []),
    ].filter((el) => el.checkVisibility());
    (which === 'first' ? stops[0] : stops.at(-1))?.focus();
  }, end);

/** Tab, Tab past the last stop and Shift+Tab past the first: the focus is in the dialog after every press. */
async function expectTabStaysIn(page: Page, label: string) {
  expect(await focusInDialog(page), `${label}: focus moved into the dialog`).toBe(true);
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    expect(await focusInDialog(page), `${label}: Tab ${i + 1}`).toBe(true);
  }
  await focusEnd(page, 'last');
  await page.keyboard.press('Tab');
  expect(await focusInDialog(page), `${label}: Tab from the last stop`).toBe(true);
  await focusEnd(page, 'first');
  await page.keyboard.press('Shift+Tab');
  expect(await focusInDialog(page), `${label}: Shift+Tab from the first stop`).toBe(true);
}

async function expectDialogCycle(page: Page, opener: Locator, open: () => Promise<void>, label: string) {
  await open();
  await expect(page.locator('dialog[open]')).toHaveCount(1);
  await expectTabStaysIn(page, label);
  await page.keyboard.press('Escape');
  await expect(page.locator('dialog[open]')).toHaveCount(0);
  await expect(opener, `${label}: focus back on its opener`).toBeFocused();
}

test('every dialog keeps Tab inside it and gives the focus back to what opened it', async ({ page, host }) => {
  test.slow();
  await openUi(page, host);
  await selectTask(page, host, 'Tidy the docs');

  const byKeyboard = (opener: Locator) => async () => {
    await opener.focus();
    await page.keyboard.press('Enter');
  };
  for (const [id, label] of [
    ['open-settings', 'Settings'],
    ['new-task', 'New task'],
    ['open-shortcuts', 'Shortcuts'],
    ['notification-bell', 'Notifications'],
    ['task-changes-open', 'Files changed'],
  ] as const) {
    const opener = page.getByTestId(id);
    await expectDialogCycle(page, opener, byKeyboard(opener), label);
  }

  // Opened from a menu whose item goes with it: the focus goes back to the row's menu button.
  const menuButton = page.getByTestId('task-row').filter({ hasText: 'Tidy the docs' }).getByTestId('task-menu');
  await expectDialogCycle(
    page,
    menuButton,
    async () => {
      await menuButton.click();
      await page.getByTestId('task-delete').click();
    },
    'Delete',
  );

  // "?" pressed with the focus nowhere: closing the help leaves it on the help button, not nowhere.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Shift+Slash');
  await expect(page.getByTestId('shortcut-help')).toBeVisible();
  await page.getByTestId('shortcut-help-close').click();
  await expect(page.getByTestId('open-shortcuts')).toBeFocused();
});
