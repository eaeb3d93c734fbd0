// Settings → LLM profiles in the built renderer against a headless host started WITHOUT an env profile: a profile
// saved in the UI is tested against the scripted server, a task created with it runs, and a profile whose key the
// backend refuses makes the job fail. The key never comes back: not in the page, an answer, or the host's log.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, LLM_API_KEY, LLM_MODEL, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { complete, openUi, renameOpenTask } from './support/ui';

async function addProfile(
  page: Page,
  fields: { name: string; baseURL: string; apiKey: string; makeDefault?: boolean },
): Promise<void> {
  await page.getByTestId('profile-add').click();
  await page.getByTestId('profile-field-name').fill(fields.name);
  await page.getByTestId('profile-field-baseURL').fill(fields.baseURL);
  await page.getByTestId('profile-field-model').fill(LLM_MODEL);
  await page.getByTestId('profile-field-apiKey').fill(fields.apiKey);
  if (fields.makeDefault) await page.getByTestId('profile-field-makeDefault').check();
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-form')).toHaveCount(0);
}

async function createWithProfile(page: Page, title: string, profile: string): Promise<string> {
  await page.getByTestId('new-task').click();
  await page.getByTestId('field-instruction').fill(`Run on ${profile}.`);
  await expect(page.getByTestId('field-profile').locator(`option[value="${profile}"]`)).toHaveCount(1);
  await page.getByTestId('field-profile').selectOption(profile);
  await page.getByTestId('create-submit').click();
  await expect(page.getByTestId('create-task-form')).toHaveCount(0);
  await renameOpenTask(page, title);
  return (await page.getByTestId('task-view').getAttribute('data-task-id')) ?? '';
}

/** The key in none of: the page, the profile list, the task, the host's output, the data dir's readable files. */
async function expectKeyNowhere(page: Page, host: HeadlessHost, key: string): Promise<void> {
  expect(await page.content()).not.toContain(key);
  expect(JSON.stringify((await host.call('GET', '/profiles')).body)).not.toContain(key);
  expect(JSON.stringify((await host.call('GET', '/tasks')).body)).not.toContain(key);
  expect(host.output()).not.toContain(key);
  for (const file of fs.readdirSync(host.dataDir, { recursive: true }) as string[]) {
    const full = path.join(host.dataDir, file);
    if (fs.statSync(full).isFile()) expect(fs.readFileSync(full).toString('latin1'), file).not.toContain(key);
  }
}

test('P2.17 a profile saved in Settings is tested against the scripted server, and a task created with it runs', async ({
  page,
  host,
  llm,
}) => {
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  await expect(page.getByTestId('profiles-empty')).toBeVisible();
  await addProfile(page, { name: 'scripted', baseURL: llm.baseURL, apiKey: LLM_API_KEY, makeDefault: true });

  const item = page.locator('[data-testid="profile-item"][data-name="scripted"]');
  await expect(item).toHaveAttribute('data-default', 'true');
  await expect(item.getByTestId('profile-key')).toHaveText(`•••• ${LLM_API_KEY.slice(-4)}`);
  // The key field is write-only: editing shows the hint, never the key.
  await item.getByTestId('profile-edit').click();
  await expect(page.getByTestId('profile-field-apiKey')).toHaveValue('');
  await expect(page.getByTestId('profile-field-apiKey')).toHaveAttribute('placeholder', /•••• pted/);
  await page.getByTestId('profile-form').getByRole('button', { name: 'Cancel' }).click();

  await item.getByTestId('profile-test').click();
  const result = item.getByTestId('profile-test-result');
  await expect(result).toHaveAttribute('data-ok', 'true');
  await expect(result).toContainText('scripted-model');
  expect(llm.modelListRequests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/models' });
  await page.getByTestId('settings-close').click();

  llm.push({ text: 'On it.', ...complete('success', 'Ran on the saved profile.') });
  const taskId = await createWithProfile(page, 'Saved profile', 'scripted');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const detail = await host.call<{ jobs: { profile: string }[] }>('GET', `/tasks/${taskId}`);
  expect(detail.body.jobs.at(-1)?.profile).toBe('scripted');
  const chat = llm.requests.filter((r) => r.path.includes('chat'));
  expect(chat).toHaveLength(1);
  expect(chat[0]?.headers.authorization).toBe(`Bearer ${LLM_API_KEY}`);
  expect(chat[0]?.body?.model).toBe(LLM_MODEL);

  // Saved in the data dir, sealed, 0600.
  const file = path.join(host.dataDir, 'profiles.json');
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(file, 'utf8')).not.toContain(LLM_API_KEY);
  await expectKeyNowhere(page, host, LLM_API_KEY);
});

test('P2.17 a profile whose key the backend refuses: the test says so, and a task on it fails with a clear error', async ({
  page,
  host,
  llm,
}) => {
  const wrongKey = 'sk-e2e-not-the-right-one-7788';
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  await addProfile(page, { name: 'refused', baseURL: llm.baseURL, apiKey: wrongKey });
  const item = page.locator('[data-testid="profile-item"][data-name="refused"]');
  await item.getByTestId('profile-test').click();
  await expect(item.getByTestId('profile-test-result')).toHaveAttribute('data-ok', 'false');
  await expect(item.getByTestId('profile-test-result')).toContainText('401');
  await page.getByTestId('settings-close').click();

  const taskId = await createWithProfile(page, 'Refused key', 'refused');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'failed', { timeout: 20_000 });
  const detail = await host.call<{ jobs: { status: string; error: string | null }[] }>('GET', `/tasks/${taskId}`);
  expect(detail.body.jobs.at(-1)?.error).toMatch(/401/);
  expect(llm.remaining).toBe(0);
  await expectKeyNowhere(page, host, wrongKey);
});

test('the kind picker fills the preset base URL and leaves a typed one alone; the list shows the kind; a Mistral profile is never sent stream_options', async ({
  page,
  host,
  llm,
}) => {
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('profile-add').click();
  const kind = page.getByTestId('profile-field-kind');
  const baseURL = page.getByTestId('profile-field-baseURL');
  await expect(kind).toHaveValue('generic');
  await kind.selectOption('ollama');
  await expect(baseURL).toHaveValue('http://127.0.0.1:11434/v1');
  await kind.selectOption('mistral');
  await expect(baseURL).toHaveValue('https://api.mistral.ai/v1');
  await baseURL.fill(llm.baseURL);
  await kind.selectOption('groq');
  await expect(baseURL).toHaveValue(llm.baseURL);
  await kind.selectOption('mistral');
  await page.getByTestId('profile-field-name').fill('mistral');
  await page.getByTestId('profile-field-model').fill(LLM_MODEL);
  await page.getByTestId('profile-field-apiKey').fill(LLM_API_KEY);
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-form')).toHaveCount(0);

  const item = page.locator('[data-testid="profile-item"][data-name="mistral"]');
  await expect(item.getByTestId('profile-kind')).toHaveText('Mistral');
  await expect(item.getByTestId('profile-kind')).toHaveAttribute('data-kind', 'mistral');
  await page.getByTestId('settings-close').click();

  llm.push({ text: 'On it.', ...complete('success', 'Ran on Mistral.') });
  await createWithProfile(page, 'Mistral profile', 'mistral');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  const chat = llm.requests.filter((r) => r.path.includes('chat'));
  expect(chat).toHaveLength(1);
  expect(chat[0]?.rawBody).not.toContain('stream_options');
});

test('a generic profile pointed at a known provider says which kind it acts as; a picked kind does not', async ({
  page,
  host,
}) => {
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('profile-add').click();
  const actsAs = page.getByTestId('profile-form').getByTestId('profile-acts-as');
  await page.getByTestId('profile-field-baseURL').fill('https://api.deepseek.com.example.net/v1');
  await expect(actsAs).toHaveCount(0);
  await page.getByTestId('profile-field-baseURL').fill('https://api.deepseek.com');
  await expect(actsAs).toHaveText('acts as DeepSeek, known from its base URL');
  await page.getByTestId('profile-field-kind').selectOption('openai');
  await expect(actsAs).toHaveCount(0);
  await page.getByTestId('profile-field-kind').selectOption('generic');
  await page.getByTestId('profile-field-name').fill('ds');
  await page.getByTestId('profile-field-model').fill('deepseek-chat');
  await page.getByTestId('profile-save').click();
  await expect(page.getByTestId('profile-form')).toHaveCount(0);

  const item = page.locator('[data-testid="profile-item"][data-name="ds"]');
  await expect(item.getByTestId('profile-kind')).toHaveAttribute('data-kind', 'generic');
  await expect(item.getByTestId('profile-acts-as')).toHaveText('acts as DeepSeek, known from its base URL');
  const listed = await host.call<{ profiles: { name: string; actsAs?: string }[] }>('GET', '/profiles');
  expect(listed.body.profiles.find((p) => p.name === 'ds')?.actsAs).toBe('deepseek');
});
