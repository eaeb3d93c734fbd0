// An MCP server that asks the person while its tool call runs (issue 27 point 2), in the browser against a headless
// host and the scripted model: the form's card shows in the task with the server's fields, the person fills it in and
// sends it, and the server's answer reaches the model as the call's result.
import fs from 'node:fs';
import path from 'node:path';
import { askingServerEntry } from '../test-support/mcp-fixtures';
import { expect, test } from './support/fixtures';
import { acceptWorkspaceSettings, complete, createInUi, messagesOf, openUi, textOf } from './support/ui';

test('an elicitation is a card in the task: the person’s answer goes back to the server', async ({
  page,
  llm,
  llmHost,
}) => {
  fs.mkdirSync(path.join(llmHost.workspace, '.maestro'), { recursive: true });
  fs.writeFileSync(
    path.join(llmHost.workspace, '.maestro', 'mcp.json'),
    JSON.stringify({ mcpServers: { booking: askingServerEntry({ readable: [path.resolve(__dirname, '..')] }) } }),
  );
  await acceptWorkspaceSettings(llmHost);
  let toolResult = '';
  llm.push({ toolCalls: [{ name: 'mcp__booking__book_table', arguments: {} }] }, (request) => {
    toolResult = textOf(messagesOf(request).at(-1));
    return complete('success', 'Booked.');
  });
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Book a table.', title: 'MCP question' });

  const card = page.getByTestId('mcp-prompt');
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('mcp-prompt-message')).toHaveText('Please give the booking details.');
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'running');
  // The job runs, but the task waits for the person: the notification center counts it.
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '1');
  await card.getByTestId('mcp-field-name').fill('Ada');
  await card.getByTestId('mcp-field-guests').fill('4');
  await card.getByTestId('mcp-field-seating').selectOption('outdoor');
  await card.getByTestId('mcp-prompt-submit').click();
  await expect(card).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '0');
  expect(toolResult).toBe('accept: {"name":"Ada","guests":4,"seating":"outdoor","confirm":false}');
});
