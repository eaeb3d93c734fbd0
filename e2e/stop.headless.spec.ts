// Stop from where one types (issue 23, point 2): the composer's Stop, or Esc, cancels the job while the model streams;
// what was streamed stays in the feed where it was, marked stopped, above the note of the stop — also after a reload
// — and the job is cancelled. Esc that closes a menu or popover does not stop the job.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { createInUi, openUi, waitForJob } from './support/ui';

/** About 1,300 characters, streamed over about half a minute: a stop lands mid-stream, even on a busy machine. */
const LONG = Array.from({ length: 40 }, (_, i) => `Sentence ${i} of the long answer.`).join(' ');
const slow = { text: LONG, textChunks: 80, chunkDelayMs: 400 };

const taskIdOf = async (page: Page) => (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;

/** Waits until a good part of the answer is on screen; returns what is. */
async function midStream(page: Page): Promise<string> {
  const text = page.getByTestId('stream-text');
  await expect(text).toContainText('Sentence 5 ', { timeout: 30_000 });
  await expect(page.getByTestId('composer-stop')).toBeVisible();
  return (await text.textContent()) ?? '';
}

async function expectStoppedInPlace(page: Page, seen: string): Promise<void> {
  const row = page.locator('[data-stopped="true"]');
  await expect(row).toHaveCount(1);
  const text = (await row.getByTestId('step-text').or(row.getByTestId('stream-text')).textContent()) ?? '';
  // Everything read before the stop is still there (a little more may have arrived before the stream was cut).
  expect(text.startsWith(seen.trim()), `${text}\nstarts with\n${seen}`).toBe(true);
  expect(text.length).toBeLessThan(LONG.length);
  await expect(row.getByTestId('turn-stopped')).toBeVisible();
  // In its place: the note of the stop comes after it, never above it.
  const note = page.locator('[data-testid="chat-message"][data-author="system"]').last();
  await expect(note).toContainText('Cancelled.');
  const rowBox = await row.boundingBox();
  const noteBox = await note.boundingBox();
  expect(rowBox && noteBox && rowBox.y + rowBox.height <= noteBox.y + 1).toBe(true);
  await expect(page.getByTestId('composer-stop')).toHaveCount(0);
}

test('P1.21 P7.22 Stop in the composer cancels the streaming job and leaves what streamed, marked stopped, in its place', async ({
  page,
  llm,
  llmHost,
}) => {
  test.setTimeout(120_000);
  llm.push(slow);
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Write a long answer.', title: 'Stop me' });
  const seen = await midStream(page);
  await page.getByTestId('composer-stop').click();
  await waitForJob(llmHost, await taskIdOf(page), 'cancelled');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'cancelled');
  await expectStoppedInPlace(page, seen);
  // The step holds it: a reload shows the same.
  await page.reload();
  await expect(page.getByTestId('chat-step').filter({ hasText: 'Sentence 5 ' })).toBeVisible({ timeout: 20_000 });
  await expectStoppedInPlace(page, seen);
});

test('P1.21 P7.22 Esc stops the job from the message field, but only closes an open popover first', async ({
  page,
  llm,
  llmHost,
}) => {
  test.setTimeout(120_000);
  llm.push(slow);
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Write a long answer.', title: 'Esc me' });
  await expect(page.getByTestId('stream-text')).toContainText('Sentence 1 ', { timeout: 30_000 });
  // Esc in the notification center closes it; the job goes on.
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-center')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notification-center')).toHaveCount(0);
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'running');

  const seen = await midStream(page);
  await page.getByTestId('composer-input').fill('Wait, stop.');
  await page.getByTestId('composer-input').press('Escape');
  await waitForJob(llmHost, await taskIdOf(page), 'cancelled');
  await expectStoppedInPlace(page, seen);
  // What was typed is kept.
  await expect(page.getByTestId('composer-input')).toHaveValue('Wait, stop.');
});
