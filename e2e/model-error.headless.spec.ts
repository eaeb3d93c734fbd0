// A failed model call, one row with its fix at hand (issue 23, point 3), and Settings' side list (point 7): the
// scripted model server refuses a key with a 401; the chat shows one error row in the person's words with the
// server's own text folded under it; Edit profile opens that profile's form in Settings, in view, with focus in its
// key field; a new key saved, Retry is offered there and runs the task again from where it stopped, and it succeeds
// with the new key. In Japanese, a 403 whose text hides a character is shown marked, and the row's Retry succeeds.
import type { Locator, Page } from '@playwright/test';
import { expectAccessible } from './support/axe';
import { expect, LLM_API_KEY, LLM_MODEL, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { complete, messagesOf, openUi, textOf, waitForJob } from './support/ui';

/** A task made over the bridge (the UI's own form is not what these tests are about), then opened in the UI. */
async function startTask(page: Page, host: HeadlessHost, instruction: string): Promise<string> {
  const made = await host.call<{ task: { id: string } }>('POST', '/tasks', {
    instruction,
    title: 'Failing model',
    workspacePath: host.workspace,
  });
  expect(made.status).toBe(201);
  const taskId = made.body.task.id;
  await page.locator(`[data-testid="task-item"][data-task-id="${taskId}"]`).click();
  await expect(page.getByTestId('task-view')).toHaveAttribute('data-task-id', taskId);
  return taskId;
}

/** The one error row of the chat: nothing else in the feed says the server's text (a step's own error line). */
async function oneErrorRow(page: Page): Promise<Locator> {
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  const row = page.getByTestId('error-comment');
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('step-error')).toHaveCount(0);
  await expect(page.getByTestId('chat-step')).toHaveCount(0);
  await expect(page.getByTestId('job-error')).toHaveCount(0);
  return row;
}

/** `inner`'s top edge lies within `outer`'s box: scrolled into view there. */
async function expectTopWithin(inner: Locator, outer: Locator): Promise<void> {
  const a = await inner.boundingBox();
  const b = await outer.boundingBox();
  expect(a && b).toBeTruthy();
  if (!a || !b) return;
  expect(a.y).toBeGreaterThanOrEqual(b.y - 1);
  expect(a.y).toBeLessThan(b.y + b.height - 20);
}

test('P4.23 P2.17 P1.16 a 401 is one row in words, Edit profile opens the form focused, and Retry after the save succeeds', async ({
  page,
  host,
  llm,
}) => {
  const wrongKey = 'sk-e2e-refused-4242';
  const saved = await host.call('POST', '/profiles', {
    name: 'work',
    kind: 'generic',
    baseURL: llm.baseURL,
    model: LLM_MODEL,
    apiKey: wrongKey,
    makeDefault: true,
  });
  expect(saved.status).toBe(201);
  await openUi(page, host);
  const taskId = await startTask(page, host, 'Summarise the notes.');

  const row = await oneErrorRow(page);
  await expect(row).toHaveAttribute('data-case', 'auth');
  await expect(row.getByTestId('job-error-headline')).toHaveText(
    'The model server refused the key of profile work (401).',
  );
  // The server's own text, folded: hidden until asked for.
  const detail = row.getByTestId('job-error-detail');
  await expect(detail).toBeHidden();
  await row.locator('summary').click();
  await expect(detail).toContainText('scripted-llm-server: missing or wrong API key');
  await expect(row.getByTestId('job-retry-run')).toHaveText('Retry');
  await expectAccessible(page, '[data-testid="error-comment"]');

  // Edit profile: Settings at that profile's form, in view, focus on the key (in the dialog, not behind it).
  await row.getByTestId('job-open-profile').click();
  const dialog = page.getByRole('dialog');
  const form = dialog.getByTestId('profile-form');
  await expect(form.getByRole('heading')).toHaveText('Edit work');
  await expect(form.getByTestId('profile-field-apiKey')).toBeFocused();
  expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="profile-form"]'))).toBe(true);
  await expectTopWithin(form, page.getByTestId('settings-pane'));
  await expect(page.locator('[data-testid="settings-nav-item"][aria-current="true"]')).toHaveAttribute(
    'data-section',
    'profiles',
  );

  // A new key saved: Settings offers Retry (focused); it runs the task again, which succeeds with the new key.
  await form.getByTestId('profile-field-apiKey').fill(LLM_API_KEY);
  await form.getByTestId('profile-save').click();
  await expect(form).toHaveCount(0);
  const offer = page.getByTestId('profile-saved-retry');
  await expect(offer).toContainText('Profile work is saved.');
  await expect(offer.getByTestId('profile-saved-retry-run')).toBeFocused();
  llm.push({ text: 'Reading them.', ...complete('success', 'The notes, summarised.') });
  await offer.getByTestId('profile-saved-retry-run').click();
  await expect(page.getByTestId('settings-dialog')).toHaveCount(0);
  await waitForJob(host, taskId, 'succeeded');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded');

  const chats = llm.requests.filter((r) => r.path.includes('chat'));
  const last = chats.at(-1);
  expect(last?.headers.authorization).toBe(`Bearer ${LLM_API_KEY}`);
  // From where it stopped: the same task's conversation, the instruction in it.
  expect(last ? messagesOf(last).map(textOf).join('\n') : '').toContain('Summarise the notes.');
  const jobs = await host.call<{ jobs: { id: string; continuedFromJobId: string | null }[] }>(
    'GET',
    `/tasks/${taskId}`,
  );
  expect(jobs.body.jobs).toHaveLength(2);
  expect(jobs.body.jobs[1]?.continuedFromJobId).toBe(jobs.body.jobs[0]?.id);
  // The old error row stays as history, without a Retry that would start yet another job.
  await expect(page.getByTestId('error-comment')).toHaveCount(1);
  await expect(page.getByTestId('job-retry-run')).toHaveCount(0);
});

test("Settings' side list moves to each section and marks it; Done closes", async ({ page, host }) => {
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  const pane = page.getByTestId('settings-pane');
  const items = page.getByTestId('settings-nav-item');
  const sections = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-section') ?? ''));
  expect(sections).toEqual([
    'appearance',
    'notifications',
    'checkpoints',
    'toolPolicy',
    'mcp',
    'autoPrompter',
    'profiles',
    'hosts',
    'data',
  ]);
  // From the last up, so each jump really moves the pane (the first is at the top when Settings opens).
  for (const id of [...sections].reverse()) {
    await page.locator(`[data-testid="settings-nav-item"][data-section="${id}"]`).click();
    const section = page.locator(`[data-testid="settings-section"][data-section="${id}"]`);
    await expect(section).toBeFocused();
    await expectTopWithin(section, pane);
    await expect(page.locator('[data-testid="settings-nav-item"][aria-current="true"]')).toHaveAttribute(
      'data-section',
      id,
    );
  }
  await expectAccessible(page, '[data-testid="settings-nav"]');
  // Scrolling the pane by hand moves the mark too.
  await pane.evaluate((el) => {
    el.scrollTop = 0;
  });
  await expect(page.locator('[data-testid="settings-nav-item"][aria-current="true"]')).toHaveAttribute(
    'data-section',
    'appearance',
  );
  await page.getByTestId('settings-close').click();
  await expect(page.getByTestId('settings-dialog')).toHaveCount(0);
});

test.describe('in Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test('P4.23 a 403 is one row in Japanese, its server text folded with a hidden character marked; Retry in the row succeeds', async ({
    page,
    llmHost,
    llm,
  }) => {
    // U+202E (right-to-left override) would turn the text around: it is shown as a marked escape instead.
    llm.push({ fault: 'http', status: 403, message: 'key revoked \u202Etxt.exe' });
    await openUi(page, llmHost);
    const taskId = await startTask(page, llmHost, 'メモをまとめて');

    const row = await oneErrorRow(page);
    await expect(row.getByTestId('job-error-headline')).toHaveText(
      'モデルサーバーがプロファイル env のキーを拒否しました（403）。',
    );
    await expect(row.locator('summary')).toHaveText('サーバーの応答');
    await row.locator('summary').click();
    const detail = row.getByTestId('job-error-detail');
    await expect(detail).toContainText('key revoked');
    await expect(detail.locator(`.untrusted-escape[data-code-point="${0x202e}"]`)).toHaveCount(1);
    await expect(row.getByTestId('job-open-profile')).toHaveText('プロファイル env を編集');

    llm.push(complete('success', 'まとめました。'));
    await row.getByTestId('job-retry-run').click();
    await waitForJob(llmHost, taskId, 'succeeded');
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded');
    await expect(page.getByTestId('job-retry-run')).toHaveCount(0);
  });
});
