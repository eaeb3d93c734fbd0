// Settings' MCP section in the browser against a headless host and the scripted model, with the reference server
// (server-everything over stdio, in Claude Code's `"type": "stdio"` shape) and a server that exits at start: a job
// offers the good server's tools and shows a warning naming the broken one in the task; Settings then lists each
// server with its status, tools and last error; "Check now" starts one; turning the broken one off survives a reload
// and the next job does not start it.
import fs from 'node:fs';
import path from 'node:path';
import { FAULTY_SERVER } from '../test-support/mcp-fixtures';
import { EVERYTHING } from '../test-support/mcp-reference-servers';
import { expect, test } from './support/fixtures';
import { acceptWorkspaceSettings, complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

test('the MCP section lists each server with status, tools and last error; a server turned off stays off', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = fs.realpathSync(llmHost.workspace);
  // The servers run from this checkout, which the sandbox hides when it lies in /tmp or the home folder.
  const readable = [process.cwd()];
  fs.mkdirSync(path.join(workspace, '.maestro'));
  fs.writeFileSync(
    path.join(workspace, '.maestro', 'mcp.json'),
    JSON.stringify({
      mcpServers: {
        every: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], readable },
        broken: { type: 'stdio', command: process.execPath, args: [FAULTY_SERVER, 'exit'], readable },
      },
    }),
  );
  await acceptWorkspaceSettings(llmHost);
  let echoed = '';
  llm.push({ toolCalls: [{ name: 'mcp__every__echo', arguments: { message: 'hi' } }] }, (request) => {
    echoed = textOf(messagesOf(request).at(-1));
    return complete('success', 'Echoed.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Echo through MCP.', title: 'MCP servers' });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  expect(echoed).toBe('Echo: hi');
  const offered = (llm.requests[0]?.body?.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
  expect(offered).toContain('mcp__every__echo');
  expect(offered.filter((n) => n.startsWith('mcp__broken__'))).toEqual([]);
  // The task shows the warning naming the broken server.
  await expect(
    page.getByTestId('chat-message').filter({ hasText: 'MCP server "broken" is not available in this job' }),
  ).toHaveCount(1);

  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('mcp-settings');
  await section.getByTestId('mcp-workspace').selectOption(workspace);
  const every = section.locator('[data-testid="mcp-server"][data-name="every"]');
  const broken = section.locator('[data-testid="mcp-server"][data-name="broken"]');
  await expect(every).toHaveAttribute('data-status', 'connected');
  await expect(every.getByTestId('mcp-server-tools')).toContainText('mcp__every__echo');
  await expect(broken).toHaveAttribute('data-status', 'failed');
  await expect(broken.getByTestId('mcp-server-error')).toContainText('fatal: no config found');

  // Check now starts it again and says the same, at once.
  await broken.getByTestId('mcp-server-check').click();
  await expect(broken.getByTestId('mcp-server-check')).toBeEnabled({ timeout: 15_000 });
  await expect(broken).toHaveAttribute('data-status', 'failed');
  await expect(broken.getByTestId('mcp-server-error')).toContainText('Connection closed');

  await broken.getByTestId('mcp-server-enabled').uncheck();
  await expect(broken).toHaveAttribute('data-enabled', 'false');
  await expect(broken.getByTestId('mcp-server-status')).toHaveText('off');
  // The workspace's file is untouched: the choice is kept in the data dir, with the accepted settings.
  expect(JSON.parse(fs.readFileSync(path.join(workspace, '.maestro', 'mcp.json'), 'utf8')).mcpServers.broken).toEqual({
    type: 'stdio',
    command: process.execPath,
    args: [FAULTY_SERVER, 'exit'],
    readable,
  });
  const accepted = JSON.parse(fs.readFileSync(path.join(llmHost.dataDir, 'accepted-settings.json'), 'utf8'));
  expect(accepted.mcpSwitches[workspace]).toEqual({ broken: false });

  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await page.getByTestId('open-settings').click();
  await page.getByTestId('mcp-workspace').selectOption(workspace);
  await expect(page.locator('[data-testid="mcp-server"][data-name="broken"]')).toHaveAttribute('data-enabled', 'false');
  await expect(
    page.locator('[data-testid="mcp-server"][data-name="every"] [data-testid="mcp-server-enabled"]'),
  ).toBeChecked();
  await page.getByTestId('settings-close').click();

  // The next job starts only the server that is on: no warning this time.
  llm.push(complete('success', 'Nothing to do.'));
  await createInUi(page, { instruction: 'Nothing.', title: 'Without the broken one' });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 30_000 });
  await expect(page.getByTestId('chat-message').filter({ hasText: 'is not available in this job' })).toHaveCount(0);
});
