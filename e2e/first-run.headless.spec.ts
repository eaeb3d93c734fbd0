// The first ten minutes in the built renderer against a headless host with no LLM profile: the first screen is the
// setup; its presets fill the base URL; "Test connection" lists the scripted server's models for the picker and says
// when the key is refused; a task run with the refused key fails with a button to its profile; a task waiting for a
// profile says so with the way to set one up; a job waiting out an unreachable server shows when it tries again and
// "Retry now". In English, and in Japanese for a Japanese OS.
import type { Page } from '@playwright/test';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { expect, test } from './support/fixtures';
import { complete, openUi, renameOpenTask, waitForJob } from './support/ui';

const KEY = 'sk-first-run-0123';
const MODELS = ['first-run-model', 'another-model'];

let llm: ScriptedLlmServer;
test.beforeEach(async () => {
  llm = await startScriptedLlmServer({ apiKey: KEY, models: MODELS });
});
test.afterEach(async () => {
  await llm.close();
});

/** A base URL where nothing listens. */
async function closedPortURL(): Promise<string> {
  const gone = await startScriptedLlmServer();
  await gone.close();
  return gone.baseURL;
}

const field = (page: Page, name: string) => page.getByTestId(`profile-field-${name}`);
const testResult = (page: Page) => page.getByTestId('profile-form-test-result');

async function createTask(page: Page, title: string): Promise<string> {
  await page.getByTestId('field-instruction').fill(`Do ${title}.`);
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  await renameOpenTask(page, title);
  return (await page.getByTestId('task-view').getAttribute('data-task-id')) ?? '';
}

test.describe('in English', () => {
  test.use({ locale: 'en-US' });

  test('P2.17 a fresh host shows the setup; presets, the model list and the test come from the server; a refused key links the failed task to its profile', async ({
    page,
    host,
  }) => {
    await openUi(page, host);
    const setup = page.getByTestId('first-run-setup');
    await expect(setup).toBeVisible();
    await expect(setup.getByRole('heading', { level: 2 })).toHaveText('Connect a model');
    await expect(page.getByTestId('no-task-selected')).toHaveCount(0);

    // Each preset fills its kind's base URL (and a name); Back returns to the presets.
    for (const [kind, url] of [
      ['openai', 'https://api.openai.com/v1'],
      ['openrouter', 'https://openrouter.ai/api/v1'],
      ['ollama', 'http://127.0.0.1:11434/v1'],
      ['lmstudio', 'http://127.0.0.1:1234/v1'],
    ] as const) {
      await page.locator(`[data-testid="setup-preset"][data-kind="${kind}"]`).click();
      await expect(field(page, 'baseURL')).toHaveValue(url);
      await expect(field(page, 'kind')).toHaveValue(kind);
      await expect(field(page, 'name')).toHaveValue(kind);
      await page.getByTestId('profile-cancel').click();
    }
    await page.locator('[data-testid="setup-preset"][data-kind="generic"]').click();
    await expect(field(page, 'baseURL')).toHaveValue('');
    await expect(page.getByTestId('profile-form-test')).toBeDisabled();
    await field(page, 'baseURL').fill(llm.baseURL);
    await field(page, 'apiKey').fill(KEY);

    // The test before saving: OK, and the picker holds the server's models (the first one chosen).
    await page.getByTestId('profile-form-test').click();
    await expect(testResult(page)).toHaveAttribute('data-ok', 'true');
    await expect(testResult(page)).toHaveText('Connected: the server lists 2 models.');
    expect(llm.modelListRequests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
    await expect(field(page, 'modelPick').locator('option:not([disabled])')).toHaveText(MODELS);
    await expect(field(page, 'model')).toHaveValue(MODELS[0] as string);
    await field(page, 'modelPick').selectOption(MODELS[1] as string);
    await expect(field(page, 'model')).toHaveValue(MODELS[1] as string);

    // A wrong key: the server's refusal, in plain words.
    await field(page, 'apiKey').fill(`${KEY}-old`);
    await page.getByTestId('profile-form-test').click();
    await expect(testResult(page)).toHaveAttribute('data-ok', 'false');
    await expect(testResult(page)).toHaveAttribute('data-code', 'profile_key_refused');
    await expect(testResult(page)).toHaveText('The server refused the API key (401/403). Check the key.');

    // Saved anyway: the setup closes, the profile is the default, and the New task composer is ready.
    await page.getByTestId('profile-save').click();
    await expect(setup).toHaveCount(0);
    await expect(page.getByTestId('create-task-form')).toBeVisible();
    await expect(page.getByTestId('field-instruction')).toBeVisible();
    const listed = await host.call<{ profiles: { name: string; isDefault: boolean; model: string }[] }>(
      'GET',
      '/profiles',
    );
    expect(listed.body.profiles).toMatchObject([{ name: 'default', isDefault: true, model: MODELS[1] }]);

    // The task runs with the refused key and fails; its error, said once in the chat, names the profile and opens it.
    const taskId = await createTask(page, 'Refused');
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
    await expect(page.getByTestId('job-error')).toHaveCount(0);
    const error = page.getByTestId('error-comment');
    await expect(error).toHaveAttribute('data-code', 'profile_key_refused');
    await expect(error).toContainText('The model server refused the key of profile default (401).');
    await error.getByTestId('job-open-profile').click();
    await expect(page.getByTestId('settings-dialog')).toBeVisible();
    await expect(page.locator('[data-testid="profile-item"][data-name="default"]')).toHaveAttribute(
      'data-focused',
      'true',
    );
    await expect(page.getByTestId('profile-form').getByRole('heading')).toHaveText('Edit default');

    // Fixed in that form (tested first), saved, and the task continued: it succeeds with the new key.
    await field(page, 'apiKey').fill(KEY);
    await page.getByTestId('profile-form-test').click();
    await expect(testResult(page)).toHaveAttribute('data-ok', 'true');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('profile-form')).toHaveCount(0);
    await page.getByTestId('settings-close').click();
    await expect(page.getByTestId('settings-dialog')).toHaveCount(0);
    llm.push(complete('success', 'Done with the right key.'));
    await page.getByTestId('task-continue').click();
    await waitForJob(host, taskId, 'succeeded');
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded');
    await expect(page.getByTestId('job-error')).toHaveCount(0);
    expect(host.output()).not.toContain(KEY);
  });
});

test.describe('in Japanese', () => {
  test.use({ locale: 'ja-JP' });

  test('a task waiting for a profile says so and opens the setup; an unreachable server shows the next attempt and Retry now', async ({
    page,
    host,
  }) => {
    await openUi(page, host);
    const setup = page.getByTestId('first-run-setup');
    await expect(setup.getByRole('heading', { level: 2 })).toHaveText('モデルを接続');
    await expect(page.locator('[data-testid="setup-preset"][data-kind="generic"]')).toHaveText(
      'その他の OpenAI 互換サーバー',
    );

    // A task made before any profile: its view says why it waits, with the way to fix it.
    await page.getByTestId('new-task').click();
    const taskId = await createTask(page, '待つタスク');
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'queued');
    const waits = page.getByTestId('job-waits-profile');
    await expect(waits).toContainText('このタスクは LLM プロファイルを待っています');
    await waits.getByTestId('job-setup-profile').click();

    // The setup, from the task: Ollama's preset; a server that is not there fails the test in plain words.
    await page.locator('[data-testid="setup-preset"][data-kind="ollama"]').click();
    await expect(field(page, 'baseURL')).toHaveValue('http://127.0.0.1:11434/v1');
    await field(page, 'baseURL').fill(await closedPortURL());
    await field(page, 'model').fill(MODELS[0] as string);
    await field(page, 'apiKey').fill(KEY);
    await page.getByTestId('profile-form-test').click();
    await expect(testResult(page)).toHaveAttribute('data-code', 'profile_unreachable');
    await expect(testResult(page)).toContainText('このベース URL で応答するサーバーがありません');
    await page.getByTestId('profile-save').click();
    await expect(setup).toHaveCount(0);
    await expect(page.getByTestId('task-view-title')).toHaveText('待つタスク');

    // The job waits the outage out: when it tries again (counting down, in Japanese) and Retry now.
    await waitForJob(host, taskId, 'retry');
    const retry = page.getByTestId('job-retry');
    await expect(retry.getByTestId('job-retry-when')).toHaveText(/次の試行は(\d+\s*秒後|まもなく)です/);
    const error = page.getByTestId('job-error');
    await expect(error).toHaveAttribute('data-code', 'profile_unreachable');
    await expect(error).toContainText('プロファイル ollama のモデルサーバーに接続できませんでした。');
    await expect(error.getByTestId('job-open-profile')).toHaveText('プロファイル ollama を編集');
    const answered = page.waitForResponse((r) => r.url().endsWith(`/tasks/${taskId}/retry-now`));
    await retry.getByTestId('job-retry-now').click();
    // The next attempt is now: main moved the time, and the Worker tries again (the server still away).
    const response = await answered;
    expect(response.status()).toBe(200);
    const { job } = (await response.json()) as { job: { status: string; nextRetryAt: string } };
    expect(job.status).toBe('retry');
    expect(Date.parse(job.nextRetryAt)).toBeLessThanOrEqual(Date.now());

    // Fixed through the error's link: the next attempt reaches the server and the task succeeds.
    await page.getByTestId('job-error').getByTestId('job-open-profile').click();
    await field(page, 'baseURL').fill(llm.baseURL);
    llm.push(complete('success', 'サーバーに届きました。'));
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('profile-form')).toHaveCount(0);
    await page.getByTestId('settings-close').click();
    await waitForJob(host, taskId, 'succeeded', 60_000);
    await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded');
  });
});
