// biome-ignore-all lint/suspicious/noTemplateCurlyInString: mcp.json files write ${…} variables as plain strings
// Settings' forms in the browser against a headless host (issue 23 point 7): "Add MCP server" refuses bad fields
// under the field (the file untouched), then adds server-everything over stdio with an env value and a secret, and
// its row shows "connected" with its tools; the file holds the entry (the secret only by name); Remove takes it out
// again. The Auto Prompter's
// rules: a bad field shows its error and nothing is saved; a rule added in the form is saved, and is there after a
// reload.
import fs from 'node:fs';
import path from 'node:path';
import { EVERYTHING } from '../test-support/mcp-reference-servers';
import { expect, test } from './support/fixtures';
import { openUi } from './support/ui';

// Forms are many steps (each field typed, each error read): twice the default time, for a machine under load.
test.setTimeout(120_000);

test('Add MCP server: bad fields are named and change nothing; server-everything added over stdio checks connected', async ({
  page,
  host,
}) => {
  const workspace = fs.realpathSync(host.workspace);
  const file = path.join(workspace, '.maestro', 'mcp.json');
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('mcp-settings');
  await section.getByTestId('mcp-workspace').selectOption(workspace);
  await expect(section.getByTestId('mcp-none')).toBeVisible();
  await section.getByTestId('mcp-add').click();
  const form = section.getByTestId('mcp-add-form');

  // Each bad field is named under itself; nothing is written.
  await form.getByTestId('mcp-add-name').fill('has space');
  await form.getByTestId('mcp-add-command').fill('bin/server');
  await form.getByTestId('mcp-add-env-add').click();
  await form.getByTestId('mcp-add-env-name').fill('1BAD');
  await form.getByTestId('mcp-add-submit').click();
  await expect(form.getByTestId('mcp-add-name-error')).toContainText('1–32 letters');
  await expect(form.getByTestId('mcp-add-name')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByTestId('mcp-add-command-error')).toContainText('not a relative path');
  await expect(form.getByTestId('mcp-add-env-name-error')).toContainText('environment variable name');
  expect(fs.existsSync(file)).toBe(false);

  await form.getByTestId('mcp-add-name').fill('every');
  await form.getByTestId('mcp-add-command').fill(process.execPath);
  await form.getByTestId('mcp-add-args').fill(`${EVERYTHING}\nstdio`);
  await form.getByTestId('mcp-add-env-name').fill('LOG_LEVEL');
  await form.getByTestId('mcp-add-env-value').fill('debug');
  await form.getByTestId('mcp-add-env-add').click();
  await form.getByTestId('mcp-add-env-name').nth(1).fill('API_KEY');
  await form.getByTestId('mcp-add-env-secret').nth(1).check();
  await expect(form.getByTestId('mcp-add-env-value').nth(1)).toHaveAttribute('type', 'password');
  await form.getByTestId('mcp-add-env-value').nth(1).fill('sk-typed-in-the-form');
  // The servers run from this checkout, which the sandbox hides when it lies in /tmp or the home folder.
  await form.locator('summary').click();
  await form.getByTestId('mcp-add-readable').fill(process.cwd());
  await form.getByTestId('mcp-add-submit').click();

  await expect(form).toHaveCount(0);
  const row = section.locator('[data-testid="mcp-server"][data-name="every"]');
  await expect(row).toHaveAttribute('data-status', 'connected', { timeout: 20_000 });
  await expect(row.getByTestId('mcp-server-tools')).toContainText('mcp__every__echo');
  await expect(row.getByTestId('mcp-server-tools')).toContainText('token saved');
  const written = fs.readFileSync(file, 'utf8');
  expect(JSON.parse(written)).toEqual({
    mcpServers: {
      every: {
        type: 'stdio',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        env: { LOG_LEVEL: 'debug', API_KEY: '${API_KEY}' },
        readable: [process.cwd()],
      },
    },
  });
  expect(written).not.toContain('sk-typed-in-the-form');
  // Accepted as written: no settings change waits for review.
  const changes = await host.call<{ changes: unknown[] }>('GET', `/settings-changes/${encodeURIComponent(workspace)}`);
  expect(changes.body.changes).toEqual([]);

  // A second server of the same name is refused by main, under the name.
  await section.getByTestId('mcp-add').click();
  await section.getByTestId('mcp-add-transport-http').check();
  await section.getByTestId('mcp-add-name').fill('every');
  await section.getByTestId('mcp-add-url').fill('https://mcp.example.com/mcp');
  await section.getByTestId('mcp-add-submit').click();
  await expect(section.getByTestId('mcp-add-name-error')).toContainText('every is already a server');
  expect(fs.readFileSync(file, 'utf8')).toBe(written);
  await section.getByTestId('mcp-add-cancel').click();

  // Remove asks a second click, then takes the server out of the file.
  await row.getByTestId('mcp-server-remove').click();
  await expect(row.getByTestId('mcp-server-remove')).toHaveText('Remove every?');
  await row.getByTestId('mcp-server-remove').click();
  await expect(section.getByTestId('mcp-none')).toBeVisible();
  expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ mcpServers: {} });
});

test('Auto Prompter rules as a form: a bad field shows its error; a rule added is saved and there after a reload', async ({
  page,
  host,
}) => {
  const file = path.join(host.workspace, '.maestro', 'auto-prompter.json');
  await openUi(page, host);
  await page.getByTestId('open-settings').click();
  const section = page.getByTestId('auto-prompter-settings');
  await expect(section.getByTestId('ap-no-rules')).toBeVisible();
  await section.getByTestId('ap-rule-add').click();
  const rule = section.getByTestId('ap-rule');
  // approve_once without an argument test, and a regex RE2 cannot run: each named under its field.
  await rule.getByTestId('ap-rule-tool').fill('run_command');
  await rule.getByTestId('ap-rule-action').selectOption('approve_once');
  await section.getByTestId('auto-prompter-save').click();
  await expect(rule.getByTestId('ap-rule-args-error')).toContainText('give at least one argument matcher');
  await rule.getByTestId('ap-arg-add').click();
  await rule.getByTestId('ap-arg-name').fill('command');
  await rule.getByTestId('ap-arg-kind').selectOption('regex');
  await rule.getByTestId('ap-arg-value').fill('^npm (?!publish)');
  await section.getByTestId('auto-prompter-save').click();
  await expect(rule.getByTestId('ap-arg-error')).toContainText('lookahead');
  await expect(section.getByTestId('auto-prompter-outcome')).toHaveAttribute('data-ok', 'false');
  expect(fs.existsSync(file)).toBe(false);

  await rule.getByTestId('ap-arg-value').fill('^npm test$');
  await rule.getByTestId('ap-rule-id').fill('tests');
  await section.getByTestId('ap-rule-add').click();
  const second = section.getByTestId('ap-rule').nth(1);
  await second.getByTestId('ap-rule-tool').fill('list_dir');
  await second.getByTestId('ap-rule-words').fill('Ask for file names instead.');
  // Moved to the top: the order is the file's.
  await second.getByTestId('ap-rule-up').click();
  await section.getByTestId('auto-prompter-enabled').check();
  await section.getByTestId('auto-prompter-save').click();
  await expect(section.getByTestId('auto-prompter-outcome')).toHaveAttribute('data-ok', 'true');
  expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
    enabled: true,
    rules: [
      { match: { tool: 'list_dir' }, action: 'deny', reason: 'Ask for file names instead.' },
      {
        id: 'tests',
        match: { tool: 'run_command', args: { command: { regex: '^npm test$' } } },
        action: 'approve_once',
      },
    ],
  });

  await page.reload();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-live', 'live');
  await page.getByTestId('open-settings').click();
  const rules = page.getByTestId('ap-rule');
  await expect(rules).toHaveCount(2);
  await expect(rules.nth(0).getByTestId('ap-rule-tool')).toHaveValue('list_dir');
  await expect(rules.nth(1).getByTestId('ap-rule-id')).toHaveValue('tests');
  await expect(rules.nth(1).getByTestId('ap-arg-value')).toHaveValue('^npm test$');
  await expect(page.getByTestId('auto-prompter-enabled')).toBeChecked();
});
