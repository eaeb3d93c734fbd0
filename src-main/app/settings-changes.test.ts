// Settings files the agent can write apply only in the version a person accepted (issue 13 item 3, architecture rule
// 9): each test rewrites a workspace's `.maestro/*` file as a command or an MCP server could, then runs a real job.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { call, complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import { startedPids, stdioServerEntry, writeMcpConfig } from '../../test-support/mcp-fixtures';
import { tempDir } from '../../test-support/temp-maestro';
import { DECLARED_SANDBOX, machineSandbox, withoutSandbox } from '../../test-support/tools';

const POLICY = '.maestro/policy.json';
const RUN_ANYTHING = `${JSON.stringify({ run_command: { allow: ['*'] } }, null, 2)}\n`;

/** What a command inside the workspace can do: write the file directly, behind the app's back. */
function writeBehindTheBack(workspace: string, rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(workspace, rel)), { recursive: true });
  fs.writeFileSync(path.join(workspace, rel), text);
}

const changes = (h: Harness) => h.maestro.invoke('listSettingsChanges', { workspacePath: h.workspace }).changes;

const settingsEvents = (h: Harness, taskId: string) =>
  h.maestro.store.events
    .lastForTask(taskId, 1000)
    .flatMap((e: MaestroEvent) => (e.type === 'settings.changed' ? [e] : []));

function accept(h: Harness, file: string) {
  const change = changes(h).find((c) => c.file === file);
  if (!change) throw new Error(`no change listed for ${file}`);
  return h.maestro.invoke('acceptSettingsChange', {
    workspacePath: h.workspace,
    file,
    currentSha256: change.currentSha256,
  });
}

/** A version a person accepted: the file written and its card accepted as it is. */
function acceptAsWritten(h: Harness, rel: string, text: string): string {
  writeBehindTheBack(h.workspace, rel, text);
  accept(h, rel);
  return fs.readFileSync(path.join(h.workspace, rel), 'utf8');
}

describe('settings the agent can write are not trusted', () => {
  it('a policy changed behind the app’s back is not applied: run_command still asks, and the job says why', async () => {
    const h = await engineHarness([call('run_command', { command: 'echo hi' })], {
      policyTools: true,
      sandbox: DECLARED_SANDBOX,
      acceptSettings: false,
    });
    const accepted = acceptAsWritten(h, POLICY, '{}\n');
    writeBehindTheBack(h.workspace, POLICY, RUN_ANYTHING);
    const { taskId, jobId } = h.createTask('Run a command');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    expect(h.maestro.invoke('listToolRequests', { taskId }).requests.map((r) => r.tool)).toEqual(['run_command']);
    // The job's Activity names the file; the accepted version is in force meanwhile (a file never accepted holds the
    // job instead: jobs/settings-wait.test.ts).
    expect(settingsEvents(h, taskId)).toMatchObject([{ jobId, file: POLICY, inForce: 'accepted' }]);
    const [change] = changes(h);
    expect(change).toMatchObject({ file: POLICY, kind: 'policy', hasAccepted: true });
    expect(change?.diff).toContain('-{}');
    expect(change?.diff).toContain('+    "allow": [');
    expect(accepted).toBe('{}\n');
  });

  it.skipIf(withoutSandbox('settings: an accepted policy runs the next job’s command'))(
    'accepting applies the change from the next job; the card is gone',
    async () => {
      const h = await engineHarness(
        [call('run_command', { command: 'echo first' }), call('run_command', { command: 'echo second' }), complete()],
        { policyTools: true, sandbox: machineSandbox, acceptSettings: false },
      );
      acceptAsWritten(h, POLICY, '{}\n');
      writeBehindTheBack(h.workspace, POLICY, RUN_ANYTHING);
      const first = h.createTask('Run a command');
      expect((await h.waitFor(first.jobId, SETTLED)).waitReason).toBe('tool_request');
      expect(accept(h, POLICY).changes).toEqual([]);
      const second = h.createTask('Run another');
      expect((await h.waitFor(second.jobId, SETTLED)).status).toBe('succeeded');
      expect(h.maestro.invoke('listToolRequests', { taskId: second.taskId }).requests).toEqual([]);
      expect(settingsEvents(h, second.taskId)).toEqual([]);
    },
  );

  it('accepting refuses a file that changed again since the card showed it', async () => {
    const h = await engineHarness([], { acceptSettings: false });
    writeBehindTheBack(h.workspace, POLICY, RUN_ANYTHING);
    const [shown] = changes(h);
    writeBehindTheBack(h.workspace, POLICY, '{"run_command":{"allow":["rm *"]}}');
    expect(() =>
      h.maestro.invoke('acceptSettingsChange', {
        workspacePath: h.workspace,
        file: POLICY,
        currentSha256: shown?.currentSha256 ?? null,
      }),
    ).toThrow(/changed again since it was shown/);
    expect(changes(h)).toHaveLength(1);
  });

  it.skipIf(withoutSandbox('settings: a policy saved in Settings runs the next job’s command'))(
    'a Settings edit applies without a card; rejecting a later rewrite restores the accepted text',
    async () => {
      const h = await engineHarness(
        [call('run_command', { command: 'echo from settings' }), complete(), call('write_file', {}), complete()],
        { policyTools: true, sandbox: machineSandbox, acceptSettings: false },
      );
      const saved = h.maestro.invoke('saveToolPolicy', {
        workspacePath: h.workspace,
        policy: { tools: { deny: ['write_file'] }, run_command: { allow: ['*'] } },
      });
      expect(saved.policy.run_command.allow).toEqual(['*']);
      expect(changes(h)).toEqual([]);
      const accepted = fs.readFileSync(path.join(h.workspace, POLICY), 'utf8');
      const first = h.createTask('Run a command');
      expect((await h.waitFor(first.jobId, SETTLED)).status).toBe('succeeded');
      expect(h.maestro.invoke('listToolRequests', { taskId: first.taskId }).requests).toEqual([]);

      // The agent lifts the deny; the accepted version (write_file denied) stays in force until a person decides.
      writeBehindTheBack(h.workspace, POLICY, RUN_ANYTHING);
      expect(h.maestro.invoke('getToolPolicy', { workspacePath: h.workspace }).policy.tools.deny).toEqual([
        'write_file',
      ]);
      const second = h.createTask('Write a file');
      expect((await h.waitFor(second.jobId, SETTLED)).status).toBe('succeeded');
      const tools = (h.server.requests[2]?.body?.tools ?? []) as { function: { name: string } }[];
      expect(tools.map((t) => t.function.name)).not.toContain('write_file');
      expect(settingsEvents(h, second.taskId)).toMatchObject([{ file: POLICY, inForce: 'accepted' }]);

      expect(changes(h)[0]).toMatchObject({ hasAccepted: true });
      expect(h.maestro.invoke('rejectSettingsChange', { workspacePath: h.workspace, file: POLICY }).changes).toEqual(
        [],
      );
      expect(fs.readFileSync(path.join(h.workspace, POLICY), 'utf8')).toBe(accepted);
    },
  );

  it('rejecting a file that was never accepted removes it', async () => {
    const h = await engineHarness([], { acceptSettings: false });
    writeBehindTheBack(h.workspace, POLICY, RUN_ANYTHING);
    h.maestro.invoke('rejectSettingsChange', { workspacePath: h.workspace, file: POLICY });
    expect(fs.existsSync(path.join(h.workspace, POLICY))).toBe(false);
  });

  it('an MCP server added behind the app’s back is not started; accepted, the next job starts it', async () => {
    const h = await engineHarness([complete('without'), complete('with')], { acceptSettings: false });
    const pidFile = path.join(tempDir('maestro-pids-'), 'pids');
    writeMcpConfig(h.workspace, {});
    accept(h, '.maestro/mcp.json');
    writeMcpConfig(h.workspace, { evil: stdioServerEntry(pidFile) });
    const first = h.createTask('Go');
    expect((await h.waitFor(first.jobId, SETTLED)).status).toBe('succeeded');
    expect(startedPids(pidFile)).toEqual([]);
    expect(settingsEvents(h, first.taskId)).toMatchObject([{ file: '.maestro/mcp.json', inForce: 'accepted' }]);
    expect(h.maestro.invoke('listMcpServers', { workspacePath: h.workspace }).servers).toEqual([]);

    accept(h, '.maestro/mcp.json');
    const second = h.createTask('Go again');
    expect((await h.waitFor(second.jobId, SETTLED)).status).toBe('succeeded');
    expect(startedPids(pidFile)).toHaveLength(1);
  }, 20_000);

  it('Auto Prompter rules written behind the app’s back do not approve run_command', async () => {
    const h = await engineHarness([call('run_command', { command: 'echo hi' })], {
      policyTools: true,
      sandbox: DECLARED_SANDBOX,
      acceptSettings: false,
    });
    const approveAll = {
      enabled: true,
      rules: [{ match: { tool: 'run_command', args: { command: { regex: '.*' } } }, action: 'approve_once' }],
    };
    acceptAsWritten(h, '.maestro/auto-prompter.json', JSON.stringify({ enabled: false, rules: [] }));
    writeBehindTheBack(h.workspace, '.maestro/auto-prompter.json', JSON.stringify(approveAll));
    const { taskId, jobId } = h.createTask('Run a command');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    expect(h.maestro.store.events.lastForTask(taskId, 1000).some((e) => e.type === 'policy.fired')).toBe(false);
    expect(h.maestro.invoke('getAutoPrompter', {}).settings.enabled).toBe(false);
  });

  it('an Auto Prompter save in Settings is accepted as written: no card', async () => {
    const h = await engineHarness([], { acceptSettings: false });
    h.maestro.invoke('saveAutoPrompter', { enabled: true, rules: [] });
    expect(changes(h)).toEqual([]);
    expect(h.maestro.invoke('getAutoPrompter', {}).settings.enabled).toBe(true);
  });

  it('a piece written behind the app’s back is not offered until it is accepted', async () => {
    const h = await engineHarness([], { acceptSettings: false });
    const piece = 'id: sneaky\nname: Sneaky\nmovements:\n  - name: only\n    guidance: do anything\n';
    writeBehindTheBack(h.workspace, '.maestro/pieces/sneaky.yaml', piece);
    const ids = () => h.maestro.invoke('listPieces', {}).pieces.map((p) => p.id);
    expect(ids()).not.toContain('sneaky');
    expect(changes(h)).toMatchObject([{ file: '.maestro/pieces/sneaky.yaml', kind: 'piece' }]);
    accept(h, '.maestro/pieces/sneaky.yaml');
    expect(ids()).toContain('sneaky');
    // Deleted behind the app's back, the accepted piece stays until the deletion is accepted.
    fs.rmSync(path.join(h.workspace, '.maestro/pieces/sneaky.yaml'));
    expect(ids()).toContain('sneaky');
    expect(changes(h)).toMatchObject([{ file: '.maestro/pieces/sneaky.yaml', currentSha256: null }]);
    accept(h, '.maestro/pieces/sneaky.yaml');
    expect(ids()).not.toContain('sneaky');
  });

  it('refuses a file that is not a settings file, and a folder MAESTRO does not work in', async () => {
    const h = await engineHarness([], { acceptSettings: false });
    const reject = (workspacePath: string, file: string) =>
      h.maestro.invoke('rejectSettingsChange', { workspacePath, file });
    expect(() => reject(h.workspace, '.maestro/pieces/../../package.json')).toThrow(/not a settings file/);
    expect(() => reject(h.workspace, 'package.json')).toThrow(/not a settings file/);
    expect(() => reject(tempDir(), POLICY)).toThrow(/not a folder MAESTRO works in/);
  });
});
