// An MCP server that needs a token, in the browser against a headless host and the scripted model: the job parks
// before any LLM call and the McpAuthCard names the server (P2.14); a comment meanwhile is an interjection (P1.13); a
// refused token shows as refused; the right one resumes the job, which calls the server's tool (P2.15, P2.16).
import fs from 'node:fs';
import path from 'node:path';
import { type McpHttpServer, startMcpHttpServer } from '../test-support/mcp-http-server';
import { expect, test } from './support/fixtures';
import { acceptWorkspaceSettings, complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

let mcp: McpHttpServer;
test.beforeEach(async () => {
  mcp = await startMcpHttpServer({ token: 'e2e-right-token' });
});
test.afterEach(async () => {
  await mcp.close();
});

test('P2.14 P1.13 P2.16 P2.15 the McpAuthCard names the server, takes the token, and the job goes on with the tool', async ({
  page,
  llm,
  llmHost,
}) => {
  fs.mkdirSync(path.join(llmHost.workspace, '.maestro'));
  fs.writeFileSync(
    path.join(llmHost.workspace, '.maestro', 'mcp.json'),
    JSON.stringify({ mcpServers: { tracker: { url: mcp.url, auth: { required: true } } } }),
  );
  await acceptWorkspaceSettings(llmHost);
  let toolResult = '';
  let sawNote = false;
  llm.push({ toolCalls: [{ name: 'mcp__tracker__echo', arguments: { text: 'from the browser' } }] }, (request) => {
    const messages = messagesOf(request);
    toolResult = textOf(messages.at(-1));
    sawNote = messages.some((m) => textOf(m).includes('Use the staging tracker.'));
    return complete('success', 'Echoed through MCP.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Echo through the tracker.', title: 'MCP token' });

  const card = page.getByTestId('mcp-auth-card');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'waiting_human');
  const server = card.getByTestId('mcp-auth-server');
  await expect(server).toHaveAttribute('data-server', 'tracker');
  await expect(server.getByTestId('mcp-auth-why')).toHaveText(
    'The MCP server tracker needs a token before the agent can go on.',
  );
  expect(llm.requests).toHaveLength(0);
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '1');

  // The composer stays open: a note now is an interjection the job reads when it goes on.
  await page.getByTestId('composer-input').fill('Use the staging tracker.');
  await page.getByTestId('composer-send').click();
  await expect(
    page.locator('[data-testid="chat-message"]').filter({ hasText: 'Use the staging tracker.' }),
  ).toHaveCount(1);
  await expect(card).toBeVisible();

  // A token the server refuses: the job parks again and the card says so.
  await server.getByTestId('mcp-auth-token').fill('e2e-wrong-token');
  await server.getByTestId('mcp-auth-save').click();
  await expect(card.getByTestId('mcp-auth-why')).toHaveText(
    'The MCP server tracker refused the saved token. Save a new one.',
    { timeout: 20_000 },
  );
  expect(mcp.refused).toBe(1);
  expect(llm.requests).toHaveLength(0);

  await card.getByTestId('mcp-auth-token').fill('e2e-right-token');
  await card.getByTestId('mcp-auth-save').click();
  await expect(card).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(toolResult).toBe('echo: from the browser');
  expect(sawNote).toBe(true);
  expect(mcp.authorizations.at(-1)).toBe('Bearer e2e-right-token');
  // The token is never shown again, nor stored in clear.
  expect(await page.content()).not.toContain('e2e-right-token');
  expect(fs.readFileSync(path.join(llmHost.dataDir, 'mcp-tokens.json'), 'utf8')).not.toContain('e2e-right-token');
  const { body } = await llmHost.call<{ servers: unknown[] }>(
    'GET',
    `/mcp/servers/${encodeURIComponent(fs.realpathSync(llmHost.workspace))}`,
  );
  expect(body.servers).toMatchObject([
    { name: 'tracker', transport: 'http', authRequired: true, takesToken: true, token: 'saved', status: 'connected' },
  ]);
  llm.expectEmpty();
});
