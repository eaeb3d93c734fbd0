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

test('P2.08 a lesson a later approved one contradicts: Settings → Lessons says so, shows the later one, and retires it', async ({
  page,
  llm,
  llmHost,
}) => {
  const OLD = 'Run the tests with npm test.';
  const NEW = 'Run the unit tests with npm run test:unit.';
  llm.push(
    complete('failure', 'first'),
    { text: JSON.stringify({ lessons: [{ lesson: OLD, evidence: 'it worked' }] }) },
    complete('failure', 'second'),
    { text: JSON.stringify({ lessons: [{ lesson: NEW, evidence: 'npm test ran the e2e too', replaces: 'L1' }] }) },
  );
  type Lessons = { lessons: { id: string; text: string; status: string }[] };
  const reflectAndApprove = async (instruction: string, text: string) => {
    const made = await llmHost.call<{ task: { id: string } }>('POST', '/tasks', { instruction });
    const taskId = made.body.task.id;
    await waitForJob(llmHost, taskId, 'failed');
    expect((await llmHost.call('POST', `/tasks/${taskId}/reflect`, {})).status).toBe(201);
    let lesson: { id: string } | undefined;
    await expect
      .poll(async () => {
        lesson = (await llmHost.call<Lessons>('GET', `/tasks/${taskId}/lessons`)).body.lessons.find(
          (l) => l.text === text,
        );
        return lesson?.id;
      })
      .toBeTruthy();
    const decided = await llmHost.call('POST', `/lessons/${lesson?.id}/decide`, {
      decision: 'approve',
      scope: 'everywhere',
    });
    expect(decided.status).toBe(200);
  };
  await reflectAndApprove('Run the tests.', OLD);
  await reflectAndApprove('Run the unit tests.', NEW);

  await openUi(page, llmHost);
  await page.getByTestId('open-settings').click();
  await page.locator('[data-testid="settings-nav-item"][data-section="lessons"]').click();
  // The earlier row shows the later lesson's text too: each row is told apart by its own text.
  const old = page.getByTestId('lesson-row').filter({ hasText: OLD });
  await expect(old.getByTestId('lesson-contradicted')).toContainText(NEW);
  await expect(
    page
      .getByTestId('lesson-row')
      .filter({ hasText: NEW })
      .filter({ hasNotText: OLD })
      .getByTestId('lesson-contradicted'),
  ).toHaveCount(0);
  await old.getByTestId('lesson-row-retire').click();
  await expect(old).toHaveAttribute('data-status', 'retired');
  await expect(old.getByTestId('lesson-contradicted')).toHaveCount(0);
});

test('P2.08 a folder’s own choice of when its tasks are looked back on, in Settings → Lessons, is its space’s', async ({
  page,
  llm,
  llmHost,
}) => {
  llm.push(complete('success', 'done'));
  const made = await llmHost.call<{ task: { id: string } }>('POST', '/tasks', { instruction: 'Make a space.' });
  await waitForJob(llmHost, made.body.task.id, 'succeeded');
  type Spaces = { spaces: { id: string; reflection?: string }[] };
  const [space] = (await llmHost.call<Spaces>('GET', '/spaces')).body.spaces;
  expect(space?.reflection).toBeUndefined();

  await openUi(page, llmHost);
  await page.getByTestId('open-settings').click();
  await page.locator('[data-testid="settings-nav-item"][data-section="lessons"]').click();
  const choice = page.locator(`[data-testid="lessons-space-reflection"][data-space-id="${space?.id}"]`);
  await expect(choice).toHaveValue('settings');
  await choice.selectOption('always');
  await expect
    .poll(async () => (await llmHost.call<Spaces>('GET', '/spaces')).body.spaces[0]?.reflection)
    .toBe('always');
  await choice.selectOption('settings');
  await expect
    .poll(async () => (await llmHost.call<Spaces>('GET', '/spaces')).body.spaces[0]?.reflection ?? 'none')
    .toBe('none');
});
