// A browser step (browser_handoff) in the browser UI: the job waits on a card that says what to do and links the
// page (opened only after the link confirmation), the bell counts it, and "I'm done" wakes the job, whose model gets
// the call answered and the reply after it.
import type { RecordedRequest } from '../test-support/scripted-llm-server';
import { expect, test } from './support/fixtures';
import { complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

const STEP = { url: 'https://login.example.com/sso', instruction: 'Sign in with your work account.' };

test('P4.41 P1.12 P7.20 a browser step waits on its card; "I\'m done" wakes the job and it finishes', async ({
  page,
  llm,
  llmHost,
}) => {
  let resumed: RecordedRequest | undefined;
  llm.push({ toolCalls: [{ id: 'call_sso', name: 'browser_handoff', arguments: STEP }] }, (request) => {
    resumed = request;
    return complete('success', 'Signed in; report downloaded.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Download the report behind the SSO login.', title: 'Browser step' });

  const card = page.getByTestId('browser-step-card');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(card.getByTestId('browser-step-text')).toContainText(STEP.instruction);
  await expect(card.getByTestId('browser-step-open')).toHaveAttribute('href', STEP.url);
  // The model chose the page: Open first shows where it goes (issue 21, link-confirm.headless.spec.ts), and opens
  // nothing on Cancel.
  const popups: string[] = [];
  page.context().on('page', (opened) => popups.push(opened.url()));
  await card.getByTestId('browser-step-open').click();
  await expect(page.getByTestId('link-confirm').getByTestId('link-host')).toHaveText('login.example.com');
  await expect(page.getByTestId('link-confirm').getByTestId('link-url')).toHaveText(STEP.url);
  await page.getByTestId('link-cancel').click();
  await expect(page.getByTestId('link-confirm')).toHaveCount(0);
  expect(popups).toEqual([]);
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'waiting_human');
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '1');
  // The composer stays open: a reply is what wakes the job.
  await expect(page.getByTestId('chat-composer')).not.toHaveAttribute('data-locked', 'true');

  await card.getByTestId('browser-step-done').click();
  await expect(card).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '0');

  const messages = messagesOf(resumed as RecordedRequest);
  const answered = messages.findIndex((m) => m.role === 'tool' && JSON.stringify(m).includes('"call_sso"'));
  expect(answered).toBeGreaterThan(0);
  expect(messages[answered + 1]?.role).toBe('user');
  expect(textOf(messages[answered + 1])).toContain('finished the step in the browser');
});
