// P2.08 in the browser against the headless host and the scripted model: a failed task, "Reflect on this task" from
// its menu, the lesson card in its chat approved with a scope, and Settings → Lessons listing it approved, where it is
// retired; the next task's instruction held it while it was approved.
import type { RecordedRequest } from '../test-support/scripted-llm-server';
import { expect, test } from './support/fixtures';
import { complete, createInUi, messagesOf, openUi, textOf, waitForJob } from './support/ui';

const LESSON = 'Look for the test command in package.json first.';

test('P2.08 a lesson card approved in the chat, listed in Settings → Lessons, retired there', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(
    complete('failure', 'No test command was found.'),
    { text: JSON.stringify({ lessons: [{ lesson: LESSON, evidence: 'npm test was missing' }] }) },
    complete('success', 'Done.'),
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Run the tests.', title: 'Reflect' });
  const taskId = (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;
  await waitForJob(llmHost, taskId, 'failed');

  const row = page.locator(`[data-testid="task-row"][data-task-id="${taskId}"]`);
  await row.getByTestId('task-menu').click();
  await row.getByTestId('task-reflect').click();

  const card = page.getByTestId('lesson-card');
  await expect(card.getByTestId('lesson-text')).toHaveText(LESSON, { timeout: 20_000 });
  await expect(card.getByTestId('lesson-evidence')).toContainText('npm test was missing');
  // The Reflection is in the task's Activity, and the task is still the failed one.
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'failed');
  await page.getByTestId('tab-activity').click();
  await expect(page.getByTestId('activity-rows')).toContainText('Reflection: succeeded');
  await expect(page.getByTestId('activity-rows')).toContainText('Lesson proposed');
  await page.getByTestId('tab-chat').click();
  await card.getByTestId('lesson-scope').selectOption('everywhere');
  await card.getByTestId('lesson-approve').click();
  await expect(page.getByTestId('lesson-cards')).toHaveCount(0);

  // The next task's instruction holds the approved lesson.
  const next = await llmHost.call<{ task: { id: string } }>('POST', '/tasks', { instruction: 'Again.' });
  await waitForJob(llmHost, next.body.task.id, 'succeeded');
  expect(textOf(messagesOf(llm.requests.at(-1) as RecordedRequest).at(-1))).toContain(`- ${LESSON}`);

  await page.getByTestId('open-settings').click();
  await page.locator('[data-testid="settings-nav-item"][data-section="lessons"]').click();
  const listed = page.getByTestId('lesson-row');
  await expect(listed).toHaveCount(1);
  await expect(listed).toHaveAttribute('data-status', 'approved');
  await expect(listed).toContainText(LESSON);
  await expect(listed).toContainText('every task');
  await listed.getByTestId('lesson-row-retire').click();
  await expect(listed).toHaveAttribute('data-status', 'retired');
  const { body } = await llmHost.call<{ lessons: { status: string; useCount: number }[] }>('GET', '/lessons');
  expect(body.lessons).toMatchObject([{ status: 'retired', useCount: 1 }]);
});
