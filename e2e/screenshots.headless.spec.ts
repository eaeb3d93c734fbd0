// The main views in both themes and both languages, saved as test artifacts on every run (and, with SCREENSHOT=1,
// as the README's images in docs/): a finished task whose answer is rendered Markdown, and a task that waits on an
// approval card, with the bell counting it.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { APP_ROOT } from './support/headless-host';
import { complete, createInUi, openUi } from './support/ui';

const ANSWER = [
  'The test fails only between 23:00 and 24:00 UTC: `formatDay()` uses the local date, the fixture the UTC one.',
  '',
  '| case | before | after |',
  '| --- | --- | --- |',
  '| 22:59 UTC | passes | passes |',
  '| 23:30 UTC | **fails** | passes |',
  '',
  '```ts',
  'export const formatDay = (d: Date) => d.toISOString().slice(0, 10); // UTC, like the fixture',
  '```',
].join('\n');

const COMBINATIONS = [
  { theme: 'light', locale: 'en' },
  { theme: 'dark', locale: 'en' },
  { theme: 'light', locale: 'ja' },
  { theme: 'dark', locale: 'ja' },
] as const;

test('P7.15 issue 6 the main views in light and dark, English and Japanese', async ({
  page,
  llm,
  llmHost,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  llm.push(
    { toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
    { text: ANSWER, toolCalls: [{ name: 'complete', arguments: { status: 'success', message: ANSWER } }] },
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Find out why the date test is flaky and fix it.', title: 'Flaky date test' });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });

  llm.push({ toolCalls: [{ name: 'run_command', arguments: { command: 'npm run deploy -- --env staging' } }] });
  await createInUi(page, { instruction: 'ステージング環境にデプロイしてください。', title: 'ステージングへデプロイ' });
  await expect(page.getByTestId('tool-request')).toHaveCount(1, { timeout: 20_000 });
  llm.push(complete('success', 'Deployed.'));

  for (const { theme, locale } of COMBINATIONS) {
    await page.evaluate(
      ({ t, l }) => {
        localStorage.setItem('maestro.theme', t);
        localStorage.setItem('maestro.locale', l);
      },
      { t: theme, l: locale },
    );
    await page.reload();
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await page.getByTestId('task-list').getByText('ステージングへデプロイ').click();
    await expect(page.getByTestId('tool-request')).toBeVisible();
    await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '1');
    const shot = await page.screenshot();
    const name = `screenshot-${theme}-${locale}.png`;
    await testInfo.attach(name, { body: shot, contentType: 'image/png' });
    if (process.env.SCREENSHOT === '1') fs.writeFileSync(path.join(APP_ROOT, 'docs', name), shot);

    await page.getByTestId('task-list').getByText('Flaky date test').click();
    await expect(page.locator('[data-testid="chat-message"][data-kind="result"] table')).toBeVisible();
    // P7.15 the persisted comments in order, each kind drawn differently.
    const messages = page.getByTestId('chat-message');
    await expect(messages).toHaveCount(2);
    expect(await messages.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')))).toEqual([
      'instruction',
      'result',
    ]);
    const accents = await messages.evaluateAll((els) => els.map((e) => getComputedStyle(e).borderLeftColor));
    expect(accents[0]).not.toBe(accents[1]);
    const answer = await page.screenshot();
    await testInfo.attach(`answer-${theme}-${locale}.png`, { body: answer, contentType: 'image/png' });
    if (process.env.SCREENSHOT === '1')
      fs.writeFileSync(path.join(APP_ROOT, 'docs', `answer-${theme}-${locale}.png`), answer);
  }
});
