// The Workspace Tool Policy operations for Settings: the defaults without a file, a round trip through the file the
// engine reads, bad policies refused naming the field with the file unchanged, only known workspaces, and a saved
// policy deciding the next job's tools (P3.11).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MaestroError } from '../../src-shared/errors';
import { testBridge } from '../../test-support/bridge-harness';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { acceptWorkspaceSettings, tempDir, testMaestro } from '../../test-support/temp-maestro';
import { POLICY_TOOL_NAMES } from '../tools/names';
import { DEFAULT_POLICY, loadPolicy, policyFile } from '../tools/policy';

const DEFAULTS = { tools: { deny: [], ask: [], allow: [] }, run_command: { allow: [], network: [] } };

function caught(fn: () => unknown): MaestroError {
  try {
    fn();
  } catch (error) {
    if (error instanceof MaestroError) return error;
    throw error;
  }
  throw new Error('expected a MaestroError');
}

describe('tool policy operations', () => {
  it('no policy file: the defaults, every known tool listed, nothing written by reading', () => {
    const workspace = tempDir('maestro-ws-');
    const maestro = testMaestro({ defaultWorkspace: workspace });
    const view = maestro.invoke('getToolPolicy', { workspacePath: workspace });
    expect(view).toEqual({
      workspacePath: workspace,
      file: policyFile(workspace),
      exists: false,
      policy: DEFAULTS,
      error: null,
      knownTools: [...POLICY_TOOL_NAMES],
    });
    expect(fs.existsSync(path.join(workspace, '.maestro'))).toBe(false);
  });

  it('limits in a saved policy read back as written, reach the engine, and a bad one is refused naming the field', () => {
    const workspace = tempDir('maestro-ws-');
    const maestro = testMaestro({ defaultWorkspace: workspace });
    const limits = { subtasks: { max_count: 7 }, delegate: { max_depth: 0 } };
    const saved = maestro.invoke('saveToolPolicy', { workspacePath: workspace, policy: { limits } });
    expect(saved.policy).toEqual({ ...DEFAULTS, limits });
    expect(loadPolicy(workspace).limits).toEqual(limits);
    const text = fs.readFileSync(policyFile(workspace), 'utf8');
    const error = caught(() =>
      maestro.invoke('saveToolPolicy', {
        workspacePath: workspace,
        policy: { limits: { subtasks: { max_count: 5000 } } },
      }),
    );
    expect(error.issues?.map((i) => i.path.join('.'))).toEqual(['policy.limits.subtasks.max_count']);
    expect(fs.readFileSync(policyFile(workspace), 'utf8')).toBe(text);
  });

  it('P2.18 SSH targets read back as written and survive a save from Settings (which does not edit them)', () => {
    const workspace = tempDir('maestro-ws-');
    const maestro = testMaestro({ defaultWorkspace: workspace });
    const ssh = {
      targets: {
        box: { host: 'h.example', user: 'me', hostKey: `SHA256:${'B'.repeat(43)}`, allow: ['echo *'], deny: [] },
      },
    };
    const saved = maestro.invoke('saveToolPolicy', { workspacePath: workspace, policy: { ssh } });
    expect(saved.policy).toEqual({ ...DEFAULTS, ssh });
    // Settings sends back what it got with its own edits (ssh-target-keys.test.tsx: the form keeps `ssh`).
    const edited = { ...saved.policy, tools: { ...saved.policy.tools, deny: ['write_file'] } };
    const again = maestro.invoke('saveToolPolicy', { workspacePath: workspace, policy: edited });
    expect(again.policy.ssh).toEqual(ssh);
    expect(loadPolicy(workspace).sshTargets?.map((t) => t.name)).toEqual(['box']);
    const text = fs.readFileSync(policyFile(workspace), 'utf8');
    const error = caught(() =>
      maestro.invoke('saveToolPolicy', {
        workspacePath: workspace,
        policy: { ssh: { targets: { box: { host: 'h', user: 'me', hostKey: 'nope' } } } },
      }),
    );
    expect(error.message).toMatch(/policy\.ssh\.targets\.box\.hostKey/);
    expect(fs.readFileSync(policyFile(workspace), 'utf8')).toBe(text);
  });

  it('a saved policy is the file the engine reads, and reads back the same (defaults filled in)', () => {
    const workspace = tempDir('maestro-ws-');
    const maestro = testMaestro({ defaultWorkspace: workspace });
    const saved = maestro.invoke('saveToolPolicy', {
      workspacePath: workspace,
      policy: { tools: { deny: ['write_file', 'delegate'] }, run_command: { allow: ['npm test', ' git diff * '] } },
    });
    const policy = { tools: { deny: ['write_file', 'delegate'] }, run_command: { allow: ['npm test', 'git diff *'] } };
    expect(saved).toMatchObject({ exists: true, error: null, policy });
    expect(loadPolicy(workspace)).toEqual({
      ...DEFAULT_POLICY,
      deniedTools: ['write_file', 'delegate'],
      runCommandAllow: ['npm test', 'git diff *'],
    });
    expect(maestro.invoke('getToolPolicy', { workspacePath: workspace })).toEqual(saved);
    // Only what was given: a policy of one key gets the other's default.
    expect(
      maestro.invoke('saveToolPolicy', { workspacePath: workspace, policy: { run_command: { allow: ['*'] } } }).policy,
    ).toEqual({ ...DEFAULTS, run_command: { allow: ['*'], network: [] } });
    // No temp file left beside it (written by rename).
    expect(fs.readdirSync(path.join(workspace, '.maestro'))).toEqual(['policy.json']);
  });

  it('a bad policy → 400 naming the field; the file stays byte for byte', async () => {
    const workspace = tempDir('maestro-ws-');
    const b = await testBridge({ maestro: { defaultWorkspace: workspace } });
    b.maestro.invoke('saveToolPolicy', { workspacePath: workspace, policy: { tools: { deny: ['edit_file'] } } });
    const before = fs.readFileSync(policyFile(workspace), 'utf8');
    const cases: [unknown, string, RegExp][] = [
      [{ tools: { deny: ['rm'] } }, 'policy.tools.deny.0', /unknown tool "rm"/],
      [{ run_command: { allow: ['npm test', 'ls\nrm -rf /'] } }, 'policy.run_command.allow.1', /one line/],
      [{ run_command: { allow: ['  '] } }, 'policy.run_command.allow.0', /must not be empty/],
      [{ tools: { deny: [] }, network: true }, 'policy', /network/],
      ['deny everything', 'policy', /object/],
    ];
    for (const [policy, field, message] of cases) {
      const res = await b.api('POST', '/tool-policy', { workspacePath: workspace, policy });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe('invalid_input');
      const issue = res.json.error.issues.find((i: { path: unknown[] }) => i.path.join('.') === field);
      expect(issue, `${JSON.stringify(res.json.error.issues)} names ${field}`).toBeDefined();
      expect(`${res.json.error.message} ${issue.message}`).toMatch(message);
      expect(fs.readFileSync(policyFile(workspace), 'utf8')).toBe(before);
    }
    expect(fs.readdirSync(path.join(workspace, '.maestro'))).toEqual(['policy.json']);
  });

  it('a folder that is neither a space nor the default workspace → 404, nothing written there', async () => {
    const workspace = tempDir('maestro-ws-');
    const stranger = tempDir('maestro-other-');
    const b = await testBridge({ maestro: { defaultWorkspace: workspace } });
    for (const workspacePath of [stranger, `${workspace}/.`, `${workspace}/../${path.basename(workspace)}`, 'rel']) {
      const get = await b.api('GET', `/tool-policy/${encodeURIComponent(workspacePath)}`);
      expect(get.status, get.text).toBe(404);
      const save = await b.api('POST', '/tool-policy', { workspacePath, policy: { tools: { deny: ['glob'] } } });
      expect(save.status, save.text).toBe(404);
      expect(save.json.error.code).toBe('not_found');
    }
    expect(fs.readdirSync(stranger)).toEqual([]);
    expect(fs.existsSync(path.join(workspace, '.maestro'))).toBe(false);

    // Once a task has worked in it, the folder is a space, and its policy can be edited.
    b.maestro.invoke('createTask', { instruction: 'look around', workspacePath: stranger });
    const [space] = b.maestro.invoke('listSpaces', {}).spaces.filter((s) => s.folder === fs.realpathSync(stranger));
    const save = await b.api('POST', '/tool-policy', {
      workspacePath: space?.folder,
      policy: { tools: { deny: ['glob'] } },
    });
    expect(save.status, save.text).toBe(200);
    expect(loadPolicy(stranger).deniedTools).toEqual(['glob']);
  });

  it('a broken file is reported naming the file and the field; the defaults are shown; a save fixes it', () => {
    const workspace = tempDir('maestro-ws-');
    const maestro = testMaestro({ defaultWorkspace: workspace });
    fs.mkdirSync(path.join(workspace, '.maestro'));
    fs.writeFileSync(policyFile(workspace), '{"tools":{"deny":["format_disk"]}}');
    acceptWorkspaceSettings(maestro, workspace);
    const view = maestro.invoke('getToolPolicy', { workspacePath: workspace });
    expect(view).toMatchObject({ exists: true, policy: DEFAULTS });
    expect(view.error).toContain(`${policyFile(workspace)}: tools.deny.0: unknown tool "format_disk"`);
    const fixed = maestro.invoke('saveToolPolicy', { workspacePath: workspace, policy: DEFAULTS });
    expect(fixed).toMatchObject({ exists: true, error: null, policy: DEFAULTS });
  });

  it('an unknown workspace is refused before the policy is looked at', () => {
    const maestro = testMaestro({ defaultWorkspace: null });
    const error = caught(() =>
      maestro.invoke('saveToolPolicy', { workspacePath: tempDir(), policy: { tools: { deny: ['rm'] } } }),
    );
    expect(error.code).toBe('not_found');
  });

  it('P3.11 the saved policy is what the next job’s tools follow: a denied write_file is an unknown tool', async () => {
    const h = await engineHarness(
      [call('write_file', { path: 'notes.txt', content: 'hello' }, 'c1'), complete('could not write')],
      { policyTools: true },
    );
    h.maestro.invoke('saveToolPolicy', { workspacePath: h.workspace, policy: { tools: { deny: ['write_file'] } } });
    const { jobId } = h.createTask('Write notes.txt');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    const [first, second] = h.server.requests;
    const toolNames = (first?.body?.tools ?? []).map((t) => (t as { function: { name: string } }).function.name);
    expect(toolNames).toContain('read_file');
    expect(toolNames).not.toContain('write_file');
    const result = (second?.body?.messages ?? []).find(
      (m) => (m as { role: string; tool_call_id?: string }).role === 'tool',
    ) as { content: string };
    expect(result.content).toMatch(/^Error: unknown tool write_file/);
    expect(fs.existsSync(path.join(h.workspace, 'notes.txt'))).toBe(false);
  });
});
