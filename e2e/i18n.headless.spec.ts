// Language and theme in the built renderer: the OS locale and colour scheme decide at first, Settings switches them,
// and a reload keeps the choice (localStorage), including the badge text of tasks that arrive later.
import { expect, test } from './support/fixtures';
import { openUi } from './support/ui';

test.use({ locale: 'en-US', colorScheme: 'light' });

test('switching to Japanese and the dark theme in Settings lasts across a reload', async ({ page, host }) => {
  const created = await host.call<{ task: { id: string } }>('POST', '/tasks', { instruction: 'Queued', title: 'Q' });
  expect(created.status).toBe(201);
  await openUi(page, host);

  // From the OS: English, and the light palette for a light scheme.
  await expect(page.getByTestId('new-task')).toHaveText('New task');
  const badge = page.getByTestId('task-item').filter({ hasText: 'Q' }).getByTestId('status-badge');
  await expect(badge).toHaveText('queued');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-locale').selectOption('ja');
  await page.getByTestId('settings-theme').selectOption('dark');
  await expect(page.getByTestId('settings-dialog').getByRole('heading', { level: 2 })).toHaveText('設定');
  await page.getByTestId('settings-close').click();

  await expect(page.getByTestId('new-task')).toHaveText('新しいタスク');
  await expect(badge).toHaveText('待機中');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  expect(await background()).toBe('rgb(20, 22, 28)');

  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await expect(page.getByTestId('new-task')).toHaveText('新しいタスク');
  await expect(badge).toHaveText('待機中');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(await background()).toBe('rgb(20, 22, 28)');

  // Back to following the OS: a dark scheme now gives the dark palette, a light one the light palette.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-theme').selectOption('system');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});
