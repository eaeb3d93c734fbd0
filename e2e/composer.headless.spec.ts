// The composer in the browser against a headless host and the scripted model: a question's quick replies answer it
// with one click (the model gets the choice as the answer), a follow-up can run on another LLM profile (the model
// name in the request says which), and a task's attached files show as chips on its instruction, after a reload too.
import type { Page } from '@playwright/test';
import { expect, LLM_API_KEY, LLM_MODEL, test } from './support/fixtures';
import { complete, createInUi, messagesOf, openUi, renameOpenTask, textOf } from './support/ui';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const message = (page: Page, kind: string) => page.locator(`[data-testid="chat-message"][data-kind="${kind}"]`);
const jobStatus = (page: Page) => page.getByTestId('job-status');

test('P7.02 P1.10 a question offers its choices as buttons; a click answers it and the model reads the choice', async ({
  page,
  llm,
  llmHost,
}) => {
  let seen = '';
  llm.push(
    {
      toolCalls: [
        {
          name: 'complete',
          arguments: { status: 'needs_user_input', message: 'Which colour?', choices: ['Blue', 'Red', 'Green'] },
        },
      ],
    },
    (request) => {
      seen = messagesOf(request).map(textOf).join('\n');
      return complete('success', 'Painted it.');
    },
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Paint the fence.', title: 'Fence' });

  const question = message(page, 'question');
  await expect(question).toHaveAttribute('data-open', 'true', { timeout: 20_000 });
  const replies = question.getByTestId('quick-reply');
  await expect(replies).toHaveText(['Blue', 'Red', 'Green']);
  await replies.filter({ hasText: 'Red' }).click();

  await expect(message(page, 'answer')).toContainText('Red');
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(seen).toContain('You asked: Which colour?');
  expect(seen).toContain('The user answered: Red');
  // Answered: the question no longer waits, and its buttons are gone.
  await expect(page.getByTestId('quick-reply')).toHaveCount(0);
  await expect(message(page, 'result')).toContainText('Painted it.');
});

test('P2.17 P1.11 a follow-up picks another LLM profile and its job runs on that profile’s model', async ({
  page,
  llm,
  llmHost,
}) => {
  const saved = await llmHost.call('POST', '/profiles', {
    name: 'other',
    baseURL: llm.baseURL,
    model: 'scripted-other',
    apiKey: LLM_API_KEY,
  });
  expect(saved.status).toBe(201);
  // The first reply takes a while: while the job runs, a message would join it, so no picker — a note instead.
  llm.push({ ...complete('success', 'First answer.'), delayMs: 2500 });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Say something.', title: 'Two models' });
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'running', { timeout: 20_000 });
  await expect(page.getByTestId('composer-profile-joins')).toContainText('env');
  await expect(page.getByTestId('composer-profile')).toHaveCount(0);
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('composer-profile-joins')).toHaveCount(0);

  // Sending would start a follow-up: the picker shows, on the task's profile.
  const picker = page.getByTestId('composer-profile');
  await expect(picker).toHaveValue('env');
  await expect(picker.locator('option')).toHaveText([`env · ${LLM_MODEL} (default)`, 'other · scripted-other']);
  await picker.selectOption('other');
  llm.push(complete('success', 'Second answer.'));
  await page.getByTestId('composer-input').fill('Now once more, on the other model.');
  await page.getByTestId('composer-send').click();
  await expect(page.getByTestId('composer-disposition')).toHaveAttribute('data-disposition', 'followup_job');
  await expect(message(page, 'result').last()).toContainText('Second answer.', { timeout: 20_000 });
  expect(llm.requests.map((r) => r.body?.model)).toEqual([LLM_MODEL, 'scripted-other']);
  // The pick stays for this task's next job.
  await expect(picker).toHaveValue('other');
});

test('P10.09 the files attached to a task show as chips on its instruction, with an image’s thumbnail, after a reload too', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(complete('success', 'Looked at them.'));
  await openUi(page, llmHost);
  await page.getByTestId('new-task').click();
  await page.getByTestId('field-instruction').fill('Look at the attached files.');
  await page.getByTestId('field-attachments').setInputFiles([
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('The secret word is PELICAN.\n') },
    { name: 'pixel.png', mimeType: 'image/png', buffer: PNG },
  ]);
  await page.getByTestId('create-submit').click();
  await renameOpenTask(page, 'Attached');

  const expectChips = async () => {
    const chips = message(page, 'instruction').getByTestId('attachment-chip');
    await expect(chips).toHaveCount(2);
    const chip = (name: string) =>
      message(page, 'instruction').locator(`[data-testid="attachment-chip"][data-name="${name}"]`);
    await expect(chip('notes.txt').getByTestId('attachment-size')).toHaveText('28 B');
    await expect(chip('notes.txt').getByTestId('attachment-thumb')).toHaveCount(0);
    const image = chip('pixel.png');
    await expect(image.getByTestId('attachment-size')).toHaveText(`${PNG.length} B`);
    await expect(image.getByTestId('attachment-thumb')).toHaveAttribute(
      'src',
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
    // Only the chips: no remove button on a sent instruction.
    await expect(message(page, 'instruction').getByTestId('attachment-remove')).toHaveCount(0);
  };
  await expectChips();
  await expect(jobStatus(page)).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await page.reload();
  await expect(page.getByTestId('task-view-title')).toHaveText('Attached');
  await expectChips();
});
