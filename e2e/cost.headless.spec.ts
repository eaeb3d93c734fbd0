// Issue 23 point 8 in the browser: a task on a priced profile shows $ per LLM call, turn, job and task in the usage
// panel and a context gauge with the right share of the window the server lists; a task on an unpriced profile whose
// window nobody states shows tokens only and no gauge. In English and Japanese (the OS locale picks at first).
import type { Page } from '@playwright/test';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { expect, test } from './support/fixtures';
import type { HeadlessHost } from './support/headless-host';
import { openUi, waitForJob } from './support/ui';

const MODEL = 'scripted-model';
const PRICES = { input: 2, cachedInput: 0.5, output: 8 };
// Per call: uncached × $2 + cached × $0.5 + output × $8 per million tokens.
const FIRST = (600 * 2 + 400 * 0.5 + 100 * 8) / 1e6;
const SECOND = (500 * 2 + 1500 * 0.5 + 50 * 8) / 1e6;
const TOTAL = 0.00435;

const script = () => [
  {
    toolCalls: [{ name: 'no_such_tool', arguments: {} }],
    usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 400 },
  },
  {
    toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Counted.' } }],
    usage: { promptTokens: 2000, completionTokens: 50, cachedTokens: 1500 },
  },
];

const servers: ScriptedLlmServer[] = [];
test.afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

/** A profile on its own scripted server, and a task run to the end on it. */
async function runOn(host: HeadlessHost, name: string, profile: Record<string, unknown>, modelFields = {}) {
  const server = await startScriptedLlmServer({ script: script(), modelFields });
  servers.push(server);
  const saved = await host.call('POST', '/profiles', { name, baseURL: server.baseURL, model: MODEL, ...profile });
  expect(saved.status).toBe(201);
  const created = await host.call<{ task: { id: string } }>('POST', '/tasks', {
    instruction: 'Count the words.',
    title: name,
    profile: name,
  });
  expect(created.status).toBe(201);
  await waitForJob(host, created.body.task.id, 'succeeded');
}

async function openTask(page: Page, title: string) {
  // The usage details float over the page: closed first, as a person would (Escape), to reach the task list.
  if (await page.getByTestId('usage-popover').isVisible()) await page.keyboard.press('Escape');
  await expect(page.getByTestId('usage-popover')).toBeHidden();
  await page.getByTestId('task-row').filter({ hasText: title }).getByTestId('task-item').click();
  await expect(page.getByTestId('task-view-title')).toHaveText(title);
  await expect(page.getByTestId('usage-total')).toHaveAttribute('data-prompt-tokens', '3000');
  await page.getByTestId('usage-chip').click();
  await expect(page.getByTestId('usage-invoke')).toHaveCount(1);
}

const usdOf = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-usd'))));

const LANGUAGES = [
  { locale: 'en-US', title: 'Usage', gauge: /2,000 of 8,000 tokens \(25%\)/, job: /^run \$0\.004/ },
  { locale: 'ja-JP', title: '使用量', gauge: /8,000 トークン中 2,000（25%）/, job: /^実行 \$0\.004/ },
];

for (const lang of LANGUAGES) {
  test.describe(lang.locale, () => {
    test.use({ locale: lang.locale });

    test(`P9.17 $ per LLM call, turn, job and task and a gauge at a quarter; unpriced: tokens only, no gauge (${lang.locale})`, async ({
      page,
      host,
    }) => {
      test.setTimeout(120_000); // two tasks on a host of their own
      // The priced server's model list states the window: 2,000 prompt tokens of 8,000 is a quarter.
      await runOn(host, 'priced', { prices: PRICES }, { [MODEL]: { context_window: 8000 } });
      await runOn(host, 'plain', {});
      await openUi(page, host);

      await openTask(page, 'priced');
      await expect(page.locator('.usage-title')).toHaveText(lang.title);
      const total = page.getByTestId('usage-total-usd');
      await expect(total).toHaveAttribute('data-usd', String(TOTAL));
      await expect(total).toHaveText('$0.0044');
      // The header's usage chip carries the task's $ too.
      await expect(page.getByTestId('task-cost')).toHaveAttribute('data-usd', String(TOTAL));
      await expect(page.getByTestId('usage-invoke-usd')).toHaveAttribute('data-usd', String(TOTAL));
      await expect(page.getByTestId('usage-job-usd')).toHaveText(lang.job);
      await page.getByTestId('usage-invoke').locator('.usage-calls summary').click();
      await expect(page.getByTestId('usage-turn-usd')).toHaveCount(2);
      expect(await usdOf(page, 'usage-turn-usd')).toEqual([FIRST, SECOND]);
      expect(await usdOf(page, 'usage-call-usd')).toEqual([FIRST, SECOND]);
      const gauge = page.getByTestId('context-gauge');
      await expect(gauge).toHaveAttribute('data-ratio', '0.25');
      await expect(gauge).toHaveAttribute('data-source', 'server');
      await expect(gauge).toContainText('25%');
      const meter = page.getByRole('meter');
      await expect(meter).toHaveAttribute('aria-label', lang.gauge);
      expect(await meter.evaluate((m: HTMLMeterElement) => m.value / m.max)).toBe(0.25);

      // No price and no window stated: the tokens, and neither $ nor a gauge — not $0.00, not a guess.
      await openTask(page, 'plain');
      await expect(page.getByTestId('usage-total')).toHaveAttribute('data-completion-tokens', '150');
      await expect(page.getByTestId('usage-invoke')).toContainText(
        lang.title === 'Usage' ? 'model calls' : 'モデル呼び出し',
      );
      await expect(page.locator('.cost-chip')).toHaveCount(0);
      await expect(page.getByTestId('task-cost')).toHaveCount(0);
      await expect(page.getByTestId('usage-panel')).not.toContainText('$');
      await expect(page.getByTestId('chat-composer-panel')).toBeVisible();
      await expect(page.getByTestId('context-gauge')).toHaveCount(0);
    });
  });
}
