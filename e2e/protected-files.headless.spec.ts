// A write to a file that runs code outside the sandbox, in the browser against a headless host and the scripted
// model (issue 21, point 1): under the default policy (write_file runs without asking) the model's write of
// `core.fsmonitor` into `.git/config` gets a card that names the file, says it runs code outside the sandbox and why,
// above the diff; nothing is written until the person approves; approved, it is written.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { complete, createInUi, openUi } from './support/ui';

const CONFIG = '[core]\n\tbare = false\n';
const PAYLOAD = '[core]\n\tbare = false\n\tfsmonitor = "sh .x"\n';

test('write_file on .git/config: the card says it runs code outside the sandbox; approved once, it is written', async ({
  page,
  llm,
  llmHost,
}) => {
  const workspace = fs.realpathSync(llmHost.workspace);
  const config = path.join(workspace, '.git', 'config');
  fs.mkdirSync(path.dirname(config), { recursive: true });
  fs.writeFileSync(config, CONFIG);
  llm.push(
    { toolCalls: [{ name: 'write_file', arguments: { path: '.git/config', content: PAYLOAD } }] },
    complete('success', 'Configured.'),
  );
  await openUi(page, llmHost);
  await createInUi(page, { instruction: 'Speed up git status.', title: 'Protected' });

  const card = page.getByTestId('tool-request');
  await expect(card).toHaveCount(1, { timeout: 20_000 });
  const notice = card.getByTestId('tool-request-protected');
  await expect(notice).toHaveAttribute('data-path', '.git/config');
  await expect(notice).toContainText('.git/config runs code outside the sandbox');
  await expect(notice).toContainText('fsmonitor');
  await expect(notice).toContainText('Each later change to such a file asks again');
  await expect(card.getByTestId('tool-request-diff').locator('tr[data-kind="added"]')).toHaveText([/fsmonitor/]);
  expect(fs.readFileSync(config, 'utf8')).toBe(CONFIG);

  await card.getByTestId('approve-once').click();
  await expect(page.getByTestId('job-status')).toHaveAttribute('data-status', 'succeeded', { timeout: 20_000 });
  expect(fs.readFileSync(config, 'utf8')).toBe(PAYLOAD);
  llm.expectEmpty();
});
