// The whole MCP sign-in in a real browser, against the MCP SDK's own authorization and resource servers
// (test-support/mcp-oauth-server.ts): a job parks on the server's 401 (P2.14), the McpAuthCard's Sign in opens the
// authorization server's page in a new window, which comes back to the host's loopback listener; the card goes, the
// job goes on and calls the tool with the sign-in's token (P2.16, P2.15); Settings says the server is signed in; the
// token shows nowhere and is sealed in the data dir.
import fs from 'node:fs';
import path from 'node:path';
import { type OAuthMcpServer, startOAuthMcpServer } from '../test-support/mcp-oauth-server';
import { expectAccessible } from './support/axe';
import { expect, test } from './support/fixtures';
import { acceptWorkspaceSettings, complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

let mcp: OAuthMcpServer;
test.beforeEach(async () => {
  mcp = await startOAuthMcpServer();
});
test.afterEach(async () => {
  await mcp.close();
});

/** The workspace's one MCP server, `tracker`, is the OAuth-protected one, accepted as written. */
async function useTracker(llmHost: Parameters<typeof acceptWorkspaceSettings>[0]): Promise<void> {
  fs.mkdirSync(path.join(llmHost.workspace, '.maestro'));
  fs.writeFileSync(
    path.join(llmHost.workspace, '.maestro', 'mcp.json'),
    JSON.stringify({ mcpServers: { tracker: { url: mcp.url } } }),
  );
  await acceptWorkspaceSettings(llmHost);
}

test('P2.14 P2.16 P2.15 Sign in on the card opens the authorization page; once the browser comes back the job goes on', async ({
  page,
  llm,
  llmHost,
}) => {
  await useTracker(llmHost);
  let toolResult = '';
  llm.push({ toolCalls: [{ name: 'mcp__tracker__whoami', arguments: {} }] }, (request) => {
    toolResult = textOf(messagesOf(request).at(-1));
    return complete('success', 'Signed in and asked.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Ask the tracker who I am.', title: 'MCP sign-in' });

  const card = page.getByTestId('mcp-auth-card');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'waiting_human');
  expect(llm.requests).toHaveLength(0);

  await expectAccessible(page, '[data-testid="mcp-auth-card"]');
  const popup = page.waitForEvent('popup');
  await card.getByTestId('mcp-sign-in-start').click();
  const browser = await popup;
  // The authorization server consents at once and sends the browser back to the host's loopback listener.
  await expect(browser.locator('h1')).toHaveText('Signed in to tracker', { timeout: 20_000 });
  expect(new URL(browser.url()).hostname).toBe('127.0.0.1');
  expect(new URL(browser.url()).pathname).toBe('/callback');
  await browser.close();

  await expect(card).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(toolResult).toBe('credential: Bearer [token]');
  expect(mcp.provider.grants).toEqual(['authorization_code']);
  const token = mcp.provider.accessTokens[0] ?? '';
  expect(mcp.authorizations.at(-1)).toBe(`Bearer ${token}`);
  expect(await page.content()).not.toContain(token);
  expect(fs.readFileSync(path.join(llmHost.dataDir, 'mcp-tokens.json'), 'utf8')).not.toContain(token);

  // Settings says so.
  await page.getByTestId('open-settings').click();
  await page.getByTestId('mcp-settings').getByTestId('mcp-workspace').selectOption(fs.realpathSync(llmHost.workspace));
  const row = page.locator('[data-testid="mcp-server"][data-name="tracker"]');
  await expect(row.getByTestId('mcp-server-tools')).toContainText('signed in');
  await expect(row.getByTestId('mcp-sign-in-start')).toHaveText('Sign in again');
  llm.expectEmpty();
});

test('P2.16 a browser that cannot reach the host: the card waits for the browser and takes the address it ended on', async ({
  page,
  llm,
  llmHost,
}) => {
  await useTracker(llmHost);
  llm.push({ toolCalls: [{ name: 'mcp__tracker__echo', arguments: { text: 'pasted' } }] }, () =>
    complete('success', 'Echoed.'),
  );
  // The host's loopback page cannot be reached from where the browser runs: the authorization server's redirect to
  // it leads nowhere there. (Playwright does not route a redirect's target, so the authorize answer is taken here.)
  let ended = '';
  await page.context().route(/\/authorize\?/, async (route) => {
    const answer = await route.fetch({ maxRedirects: 0 });
    ended = answer.headers().location ?? '';
    await route.abort('connectionrefused');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Echo through the tracker.', title: 'MCP sign-in by address' });
  const card = page.getByTestId('mcp-auth-card');
  await expect(card).toBeVisible({ timeout: 20_000 });

  const popup = page.waitForEvent('popup');
  await card.getByTestId('mcp-sign-in-start').click();
  await popup;
  await expect(card.getByTestId('mcp-sign-in-waiting')).toBeVisible();
  await expect.poll(() => ended, { timeout: 20_000 }).toContain('code=');
  await expectAccessible(page, '[data-testid="mcp-auth-card"]');

  // An address that is not the sign-in's answer is refused, and the card still waits.
  await card.getByTestId('mcp-sign-in-address').fill('http://127.0.0.1:1/callback?code=x&state=forged');
  await card.getByTestId('mcp-sign-in-finish').click();
  await expect(card.getByTestId('mcp-sign-in-error')).toContainText('does not answer the sign-in');
  await expect(card.getByTestId('mcp-sign-in-waiting')).toBeVisible();
  expect(mcp.provider.grants).toEqual([]);

  await card.getByTestId('mcp-sign-in-address').fill(ended);
  await card.getByTestId('mcp-sign-in-finish').click();
  await expect(card).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(mcp.provider.grants).toEqual(['authorization_code']);
  llm.expectEmpty();
});
