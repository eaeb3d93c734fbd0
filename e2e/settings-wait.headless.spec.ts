// Issue 21's "the new folder's settings", in the browser against a headless host and the scripted model: a folder
// with its own `.maestro/policy.json` and `mcp.json` that nobody accepted. The new task's view shows that the task
// waits and one card per file, before any model request; accepting the policy and rejecting mcp.json (which removes
// it) starts the job, which runs with the accepted policy (write_file denied) and without the MCP server.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { complete, createInUi, openUi } from './support/ui';

test('P7.23 P2.14 P7.20 the new task shows its folder’s settings files; deciding each one starts the job with what was accepted', async ({
  page,
  llm,
  llmHost,
}) => {
  const maestro = path.join(llmHost.workspace, '.maestro');
  fs.mkdirSync(maestro);
  fs.writeFileSync(path.join(maestro, 'policy.json'), JSON.stringify({ tools: { deny: ['write_file'] } }, null, 2));
  fs.writeFileSync(
    path.join(maestro, 'mcp.json'),
    JSON.stringify({ mcpServers: { web: { command: 'node', args: ['-e', 'process.exit(3)'] } } }),
  );
  llm.push(complete('success', 'Ran with the reviewed settings.'));
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Work in my folder.', title: 'New folder' });

  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'waiting_human', { timeout: 20_000 });
  const cards = page.getByTestId('settings-change-cards');
  await expect(cards.getByTestId('settings-wait')).toContainText('This task has not started');
  const card = (file: string) =>
    cards.getByTestId('settings-change').filter({ has: page.getByText(`.maestro/${file}`, { exact: true }) });
  await expect(cards.getByTestId('settings-change-file')).toHaveText(['.maestro/policy.json', '.maestro/mcp.json']);
  await expect(card('policy.json').getByTestId('settings-change-in-force')).toHaveText(
    'This file was never accepted: the task waits until you accept or reject it.',
  );
  await expect(card('mcp.json').getByTestId('settings-change-diff')).toContainText('"mcpServers"');
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '1');
  expect(llm.requests).toHaveLength(0);

  await card('policy.json').getByTestId('settings-accept').click();
  await expect(cards.getByTestId('settings-change-file')).toHaveText(['.maestro/mcp.json']);
  // One file is still undecided: nothing has started.
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'waiting_human');
  expect(llm.requests).toHaveLength(0);

  await card('mcp.json').getByTestId('settings-reject').click();
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('settings-change-cards')).toHaveCount(0);
  await expect(page.getByTestId('notification-bell')).toHaveAttribute('data-count', '0');
  expect(fs.existsSync(path.join(maestro, 'mcp.json'))).toBe(false);
  expect(llm.requests).toHaveLength(1);
  const tools = ((llm.requests[0]?.body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
  expect(tools).toContain('read_file');
  expect(tools).not.toContain('write_file');
  expect(tools.some((t) => t.startsWith('mcp__'))).toBe(false);
});

test('P7.20 a TAKT folder’s 300 settings files: folded cards, one accepted on its own, Accept all (299) starts the job in one step', async ({
  page,
  llm,
  llmHost,
}) => {
  const files = Array.from({ length: 300 }, (_, i) =>
    i % 3 === 0
      ? `.maestro/facets/personas/persona-${i}.md`
      : i % 3 === 1
        ? `.maestro/knowledge/knowledge-${i}.md`
        : `.maestro/pieces/rules/rule-${i}.md`,
  );
  for (const rel of files) {
    fs.mkdirSync(path.dirname(path.join(llmHost.workspace, rel)), { recursive: true });
    fs.writeFileSync(path.join(llmHost.workspace, rel), `# ${path.basename(rel)}\n\nA line a TAKT facet holds.\n`);
  }
  llm.push(complete('success', 'Ran with all the reviewed settings.'));
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Work in my TAKT folder.', title: 'TAKT folder' });

  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'waiting_human', { timeout: 20_000 });
  const cards = page.getByTestId('settings-change-cards');
  await expect(cards.getByTestId('settings-change')).toHaveCount(300);
  // Folded: each diff is under its file until opened; one card can still be decided on its own.
  await expect(cards.getByTestId('settings-change-fold')).toHaveCount(300);
  await expect(cards.getByTestId('settings-change-diff').first()).toBeHidden();
  await cards.getByTestId('settings-change').first().getByTestId('settings-accept').click();
  await expect(cards.getByTestId('settings-change')).toHaveCount(299);
  expect(llm.requests).toHaveLength(0);

  await cards.getByTestId('settings-accept-all').filter({ hasText: 'Accept all (299)' }).click();
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  await expect(page.getByTestId('settings-change-cards')).toHaveCount(0);
  expect(llm.requests).toHaveLength(1);
});
