// Grants as narrow as what was shown (issue 21, "the blanket grant"), in the browser against the headless host and
// the scripted model: `npm test` approved for the task runs again without a card, but the chain that contains it
// (`rm -rf node_modules && npm install && npm test`) asks again; the task lists its grant, and once revoked, `npm test`
// asks again too; a prefix rule chosen on the card covers the command with plain arguments after it.
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { complete, createInUi, lastToolResult, openUi, runCommand, waitForJob } from './support/ui';

const CHAIN = 'rm -rf node_modules && npm install && npm test';
const taskIdOf = async (page: Page) => (await page.getByTestId('task-view').getAttribute('data-task-id')) as string;

test('P7.04 P4.34 npm test approved for the task: the rm && npm install chain asks again; a revoked grant covers nothing', async ({
  page,
  llm,
  llmHost,
}) => {
  const results: string[] = [];
  const noted = (step: ReturnType<typeof runCommand>) => (request: Parameters<typeof lastToolResult>[0]) => {
    results.push(lastToolResult(request));
    return step;
  };
  llm.push(
    runCommand('npm test'),
    noted(runCommand('npm test')),
    noted(runCommand(CHAIN)),
    noted(runCommand('npm test')),
    noted(complete('success', 'Tests looked at.')),
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Run the tests.', title: 'Grants' });

  const card = page.getByTestId('tool-request');
  await expect(card.getByTestId('tool-request-summary')).toContainText('$ npm test', { timeout: 20_000 });
  // The choice offers exactly this command (the default), the prefix rule, and the blanket grant in its own words.
  const choice = card.getByTestId('grant-choice');
  await expect(choice).toHaveValue('exact');
  await expect(choice.locator('option')).toHaveText([
    'This command only: npm test',
    'Commands matching npm test * (no ; && | > $( ) after it)',
    'ANY command in this task (everything, in the sandbox)',
  ]);
  await card.getByTestId('approve-task').click();

  // npm test runs twice (approved, then granted); the chain waits on a card of its own.
  await expect(card.getByTestId('tool-request-summary')).toContainText(`$ ${CHAIN}`, { timeout: 30_000 });
  expect(results).toHaveLength(2);
  const chainChoice = card.getByTestId('grant-choice');
  await expect(chainChoice.locator('option')).toHaveText([
    `This command only: ${CHAIN}`,
    'ANY command in this task (everything, in the sandbox)',
  ]);
  const grants = page.getByTestId('task-grant');
  await expect(grants).toHaveCount(1);
  await expect(grants).toHaveAttribute('data-kind', 'exact');
  await expect(grants).toContainText('This command only: npm test');

  // Revoked: gone from the list, and the next npm test asks again.
  await grants.getByTestId('task-grant-revoke').click();
  await expect(page.getByTestId('task-grants')).toHaveCount(0);
  const taskId = await taskIdOf(page);
  const listed = await llmHost.call<{ grants: { revokedAt: string | null }[] }>('GET', `/tasks/${taskId}/grants`);
  expect(listed.body.grants).toEqual([expect.objectContaining({ revokedAt: expect.any(String) })]);
  await card.getByTestId('deny').click();
  await expect(card.getByTestId('tool-request-summary')).toContainText('$ npm test', { timeout: 30_000 });
  expect(results.at(-1)).toMatch(/^Error: the user denied this call/);
  await card.getByTestId('approve-once').click();
  await waitForJob(llmHost, taskId, 'succeeded', 30_000);
  const requests = await llmHost.call<{ requests: { status: string; scope: string | null }[] }>(
    'GET',
    `/tasks/${taskId}/tool-requests`,
  );
  expect(requests.body.requests.map((r) => [r.status, r.scope])).toEqual([
    ['approved', 'task'],
    ['denied', null],
    ['approved', 'once'],
  ]);
  llm.expectEmpty();
});

test('P7.04 a prefix rule chosen on the card: `npm test -- --silent` runs without a card, the task lists the rule', async ({
  page,
  llm,
  llmHost,
}) => {
  const results: string[] = [];
  llm.push(
    runCommand('npm test'),
    (request) => {
      results.push(lastToolResult(request));
      return runCommand('npm test -- --silent');
    },
    (request) => {
      results.push(lastToolResult(request));
      return complete('success', 'Ran the tests twice.');
    },
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Run the tests twice.', title: 'Prefix grant' });
  const card = page.getByTestId('tool-request');
  await expect(card.getByTestId('tool-request-summary')).toContainText('$ npm test', { timeout: 20_000 });
  await card.getByTestId('grant-choice').selectOption('prefix:npm test *');
  await expect(card.getByTestId('approve-task')).toHaveAttribute(
    'title',
    'Commands matching npm test * (no ; && | > $( ) after it)',
  );
  await card.getByTestId('approve-task').click();
  const taskId = await taskIdOf(page);
  await waitForJob(llmHost, taskId, 'succeeded', 30_000);
  expect(results).toHaveLength(2);
  expect(results[1]).not.toMatch(/^Error/);
  const grant = page.getByTestId('task-grant');
  await expect(grant).toHaveAttribute('data-kind', 'prefix');
  await expect(grant).toContainText('npm test *');
  const requests = await llmHost.call<{ requests: unknown[] }>('GET', `/tasks/${taskId}/tool-requests`);
  expect(requests.body.requests).toHaveLength(1);
  llm.expectEmpty();
});
