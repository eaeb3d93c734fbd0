// A restarted headless host keeps its address and token (host.json): an open tab reconnects by itself, with no
// reload and nothing to re-enter, and what changed while it was away (and after) reaches it.
import { expect, test } from './support/fixtures';
import { openUi } from './support/ui';

test('P2.39 an open tab reconnects to a restarted host on its own and shows what was made after the restart', async ({
  page,
  host,
}) => {
  await openUi(page, host);
  const before = await host.call<{ task: { id: string } }>('POST', '/tasks', { instruction: 'BEFORE-RESTART' });
  expect(before.status).toBe(201);
  await expect(page.getByTestId('task-item').filter({ hasText: 'BEFORE-RESTART' })).toHaveCount(1);

  // Every state the indicator passes through, so the test knows the stream really dropped and came back.
  await page.evaluate(() => {
    const indicator = document.querySelector('[data-testid="live-indicator"]') as HTMLElement;
    const seen: string[] = [];
    (window as unknown as { liveStates: string[] }).liveStates = seen;
    new MutationObserver(() => seen.push(indicator.dataset.live ?? '')).observe(indicator, { attributes: true });
  });
  const again = await host.restart();
  expect(again.url).toBe(host.url);
  expect(again.token).toBe(host.token);

  // The same page, never reloaded: the stream comes back and the task made now arrives live.
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live', { timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { liveStates: string[] }).liveStates)).toContain('down');
  const after = await host.call<{ task: { id: string } }>('POST', '/tasks', { instruction: 'AFTER-RESTART' });
  expect(after.status).toBe(201);
  await expect(page.getByTestId('task-item').filter({ hasText: 'AFTER-RESTART' })).toHaveCount(1);
  await expect(page.getByTestId('task-item').filter({ hasText: 'BEFORE-RESTART' })).toHaveCount(1);
});
