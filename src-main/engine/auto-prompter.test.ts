// The Auto Prompter through the Worker, the engine, the real built-in tools, the scripted LLM server and SQLite:
// the Policy Snapshot per job, where it is evaluated, and what each action does (spec §4.1, P8.01–P8.06).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { AutoPrompterSettings } from '../../src-shared/auto-prompter';
import { call, complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';
import { machineSandbox } from '../../test-support/tools';
import { runtimeDir } from '../workspace/paths';
import { snapshotFile } from './auto-prompter-snapshot';

type Msg = { role: string; content: string | null; tool_call_id?: string };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];
const results = (r: RecordedRequest | undefined) =>
  messages(r)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);

function writeRules(workspace: string, settings: AutoPrompterSettings | Record<string, unknown>): void {
  fs.mkdirSync(path.join(workspace, '.maestro'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.maestro', 'auto-prompter.json'), JSON.stringify(settings, null, 2));
}

const policyEvents = (h: Harness, taskId: string) =>
  h.maestro.store.events.lastForTask(taskId, 1000).flatMap((e) => (e.type === 'policy.fired' ? [e] : []));

/** The task's tool requests as stored, with their arguments. */
const toolRequests = (h: Harness, taskId: string) => h.maestro.store.toolRequests.listForTask(taskId);

const DENY_SECRET: AutoPrompterSettings = {
  enabled: true,
  rules: [
    {
      id: 'no-secret',
      match: { tool: 'read_file', args: { path: { glob: 'secret.txt' } } },
      action: 'deny',
      reason: 'The secret stays closed.',
    },
  ],
};

function workspaceWithFiles(): string {
  const ws = tempDir('maestro-ws-');
  fs.writeFileSync(path.join(ws, 'secret.txt'), 'the secret\n');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
  fs.writeFileSync(path.join(ws, 'b.txt'), 'beta\n');
  return ws;
}

describe('the Policy Snapshot of a job', () => {
  it('P8.01 the rules are fixed when the job starts: an edit made before its first reply does not apply; the next job takes the new file', async () => {
    const ws = workspaceWithFiles();
    writeRules(ws, DENY_SECRET);
    const h = await engineHarness(
      [
        // The job has started and asked the model: now the person turns the Auto Prompter off in Settings.
        () => {
          h.maestro.invoke('saveAutoPrompter', { enabled: false, rules: [] });
          return call('read_file', { path: 'secret.txt' });
        },
        complete('first'),
        call('read_file', { path: 'secret.txt' }),
        complete('second'),
      ],
      { policyTools: true, workspace: ws },
    );
    const { taskId, jobId } = h.createTask('Read the secret');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    expect(results(h.server.requests[1])[0]).toMatch(/^Error: the Auto Prompter denied this read_file call/);

    const followup = h.maestro.invoke('addComment', { taskId, body: 'Try again' });
    expect(followup.disposition).toBe('followup_job');
    const second = followup.job?.id as string;
    expect((await h.waitFor(second, SETTLED)).status).toBe('succeeded');
    expect(results(h.server.requests[3]).at(-1)).toBe('     1\tthe secret');

    const dir = runtimeDir(h.dataDir, taskId);
    const first = JSON.parse(fs.readFileSync(snapshotFile(dir, jobId), 'utf8'));
    expect(first).toMatchObject({ jobId, settings: DENY_SECRET, usedApprovals: [] });
    // Rules that are off fix nothing: no snapshot is written for that job (a job start writes and fsyncs nothing).
    expect(fs.existsSync(snapshotFile(dir, second))).toBe(false);
    expect(policyEvents(h, taskId).map((e) => e.jobId)).toEqual([jobId]);
  });

  it('P8.01 the same job coming back after an approval keeps its snapshot, whatever the file says by then', async () => {
    const ws = workspaceWithFiles();
    writeRules(ws, DENY_SECRET);
    const h = await engineHarness(
      [call('run_command', { command: 'echo parked' }), call('read_file', { path: 'secret.txt' }), complete()],
      { policyTools: true, workspace: ws },
    );
    const { taskId, jobId } = h.createTask('Run, then read');
    expect((await h.waitFor(jobId, SETTLED)).waitReason).toBe('tool_request');
    // While the job waits, the person deletes the rules file altogether.
    fs.rmSync(path.join(ws, '.maestro', 'auto-prompter.json'));
    const [request] = toolRequests(h, taskId);
    h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    expect((await h.waitFor(jobId, ['succeeded', 'failed'])).status).toBe('succeeded');
    const after = results(h.server.requests[2]);
    expect(after[0]).toBe('Exit code: 0\nparked\n');
    expect(after[1]).toMatch(/^Error: the Auto Prompter denied this read_file call \(rule no-secret\)/);
  });
});

describe('where the snapshot is evaluated', () => {
  it('P8.02 after the existence and argument checks: unknown tools, broken JSON, invalid arguments and tools the policy removed never reach it', async () => {
    const ws = workspaceWithFiles();
    writeRules(ws, {
      enabled: true,
      rules: [{ id: 'deny-all', match: { tool: '*' }, action: 'deny', reason: 'Nothing runs.' }],
    });
    fs.writeFileSync(path.join(ws, '.maestro', 'policy.json'), JSON.stringify({ tools: { deny: ['write_file'] } }));
    const h = await engineHarness(
      [
        call('no_such_tool', {}),
        call('read_file', '{"path": '),
        call('read_file', { lines: 3 }),
        call('write_file', { path: 'x.txt', content: 'x' }),
        call('list_dir', { path: '.' }),
        complete(),
      ],
      { policyTools: true, workspace: ws },
    );
    const { taskId, jobId } = h.createTask('Try things');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const answers = results(h.server.requests[5]);
    expect(answers[0]).toMatch(/^Error: unknown tool no_such_tool/);
    expect(answers[1]).toMatch(/^Error: read_file: the arguments are not valid JSON/);
    expect(answers[2]).toMatch(/^Error: read_file: invalid arguments/);
    expect(answers[3]).toMatch(/^Error: unknown tool write_file/);
    expect(answers[4]).toBe('Error: the Auto Prompter denied this list_dir call (rule deny-all): Nothing runs.');
    expect(policyEvents(h, taskId).map((e) => e.tool)).toEqual(['list_dir']);
  });

  it('P8.02 before permission and approval: a firing rule is recorded before the tool asks a person', async () => {
    const ws = workspaceWithFiles();
    writeRules(ws, {
      enabled: true,
      rules: [{ match: { tool: 'run_command' }, action: 'instruct', text: 'Explain each command you run.' }],
    });
    const h = await engineHarness([call('run_command', { command: 'echo asks' })], {
      policyTools: true,
      workspace: ws,
    });
    const { taskId, jobId } = h.createTask('Run it');
    expect((await h.waitFor(jobId, SETTLED)).waitReason).toBe('tool_request');
    const events = h.maestro.store.events.lastForTask(taskId, 1000);
    const fired = events.findIndex((e) => e.type === 'policy.fired');
    const asked = events.findIndex((e) => e.type === 'tool_request.changed');
    expect(fired).toBeGreaterThan(-1);
    expect(asked).toBeGreaterThan(fired);
    expect(toolRequests(h, taskId)).toMatchObject([{ tool: 'run_command', args: { command: 'echo asks' } }]);
  });
});

describe('the actions', () => {
  it('P8.03 instruct: the text is appended at the end as one user message before the next request; the tools run; the prefix is untouched', async () => {
    const ws = workspaceWithFiles();
    const text = 'Quote files with their line numbers.';
    writeRules(ws, { enabled: true, rules: [{ id: 'cite', match: { tool: 'read_file' }, action: 'instruct', text }] });
    const h = await engineHarness(
      [
        {
          toolCalls: [
            { name: 'read_file', arguments: { path: 'a.txt' } },
            { name: 'read_file', arguments: { path: 'b.txt' } },
          ],
        },
        complete(),
      ],
      { policyTools: true, workspace: ws },
    );
    const { taskId, jobId } = h.createTask('Read both');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const before = messages(h.server.requests[0]);
    const after = messages(h.server.requests[1]);
    for (let i = 0; i < before.length; i++)
      expect(JSON.stringify(after[i]), `message ${i}`).toBe(JSON.stringify(before[i]));
    expect(after.slice(before.length).map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'user']);
    expect(after.slice(-3, -1).map((m) => m.content)).toEqual(['     1\talpha', '     1\tbeta']);
    // Two calls fired the rule: two Policy Events, one instruction.
    expect(after.at(-1)).toEqual({ role: 'user', content: `Instruction from the Auto Prompter: ${text}` });
    expect(policyEvents(h, taskId).map((e) => [e.action, e.ruleId])).toEqual([
      ['instruct', 'cite'],
      ['instruct', 'cite'],
    ]);
    const systemTurns = h.maestro.store.logEntries
      .listForTask(taskId)
      .filter((e) => e.kind === 'SystemTurn')
      .map((e) => (e.body as { text: string }).text);
    expect(systemTurns).toContain(`Instruction from the Auto Prompter: ${text}`);
  });

  it('P8.04 deny: the tool does not run, the model gets an Error result, no ToolRequest, the job goes on', async () => {
    const ws = workspaceWithFiles();
    fs.mkdirSync(path.join(ws, 'build'));
    writeRules(ws, {
      enabled: true,
      rules: [
        {
          id: 'no-rm',
          match: { tool: 'run_command', args: { command: { regex: '^\\s*rm\\b' } } },
          action: 'deny',
          reason: 'Do not delete files; say what should go instead.',
        },
      ],
    });
    const h = await engineHarness([call('run_command', { command: 'rm -rf build' }), complete('kept')], {
      policyTools: true,
      workspace: ws,
    });
    const { taskId, jobId } = h.createTask('Clean up');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job).toMatchObject({ status: 'succeeded', result: 'kept' });
    expect(results(h.server.requests[1])).toEqual([
      'Error: the Auto Prompter denied this run_command call (rule no-rm): Do not delete files; say what should go instead.',
    ]);
    expect(fs.existsSync(path.join(ws, 'build'))).toBe(true);
    expect(toolRequests(h, taskId)).toEqual([]);
    const finished = h.events.flatMap((e) => (e.type === 'tool.finished' && e.name === 'run_command' ? [e.ok] : []));
    expect(finished).toEqual([false]);
    // The chat words the denial from data: the rule and its reason, not the model's Error text.
    const { steps } = h.maestro.invoke('getTaskRecent', { taskId });
    const denied = steps.flatMap((s) => s.toolCalls).find((c) => c.name === 'run_command');
    expect(denied?.result?.denial).toEqual({
      by: 'rule',
      rule: 'no-rm',
      reason: 'Do not delete files; say what should go instead.',
    });
  });

  it.skipIf(!machineSandbox.ok)('P8.05 approve_once: the matching call runs without a ToolRequest', async () => {
    const ws = workspaceWithFiles();
    writeRules(ws, {
      enabled: true,
      rules: [
        { match: { tool: 'run_command', args: { command: { equals: 'echo approved' } } }, action: 'approve_once' },
      ],
    });
    const h = await engineHarness([call('run_command', { command: 'echo approved' }), complete()], {
      policyTools: true,
      workspace: ws,
      sandbox: machineSandbox,
    });
    const { taskId, jobId } = h.createTask('Run it');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    expect(results(h.server.requests[1])).toEqual(['Exit code: 0\napproved\n']);
    expect(toolRequests(h, taskId)).toEqual([]);
    expect(policyEvents(h, taskId)).toMatchObject([{ action: 'approve_once', ruleIndex: 0, ruleId: null }]);
    const stored = JSON.parse(fs.readFileSync(snapshotFile(runtimeDir(h.dataDir, taskId), jobId), 'utf8'));
    expect(stored.usedApprovals).toEqual([0]);
  });

  it('P8.05 approve_once does not cover what always asks: without an OS sandbox the command waits for a person', async () => {
    const ws = workspaceWithFiles();
    writeRules(ws, {
      enabled: true,
      rules: [{ match: { tool: 'run_command', args: { command: { equals: 'touch made' } } }, action: 'approve_once' }],
    });
    const h = await engineHarness([call('run_command', { command: 'touch made' }), complete()], {
      policyTools: true,
      workspace: ws,
    });
    const { taskId, jobId } = h.createTask('Run it unsandboxed');
    expect((await h.waitFor(jobId, SETTLED)).waitReason).toBe('tool_request');
    expect(fs.existsSync(path.join(ws, 'made'))).toBe(false);
    expect(toolRequests(h, taskId)).toMatchObject([{ status: 'pending', args: { command: 'touch made' } }]);
  });

  it('P8.05 approve_once does not lift the sandbox: a working folder or a path outside the workspace is still refused', async () => {
    const ws = workspaceWithFiles();
    writeRules(ws, {
      enabled: true,
      rules: [
        { match: { tool: 'run_command', args: { command: { regex: '^touch ' } } }, action: 'approve_once' },
        { match: { tool: 'write_file', args: { path: { glob: '**' } } }, action: 'approve_once' },
      ],
    });
    const outside = path.join(path.dirname(ws), `${path.basename(ws)}-outside.txt`);
    const h = await engineHarness(
      [
        call('run_command', { command: 'touch escaped.txt', cwd: '..' }),
        call('write_file', { path: `../${path.basename(outside)}`, content: 'out' }),
        complete(),
      ],
      { policyTools: true, workspace: ws, sandbox: machineSandbox },
    );
    const { taskId, jobId } = h.createTask('Escape');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    const answers = results(h.server.requests[2]);
    expect(answers[0]).toMatch(/^Error: .* is outside the workspace folder/);
    expect(answers[1]).toMatch(/^Error: .* is outside the workspace folder/);
    expect(fs.existsSync(outside)).toBe(false);
    expect(fs.existsSync(path.join(path.dirname(ws), 'escaped.txt'))).toBe(false);
    expect(toolRequests(h, taskId)).toEqual([]);
    expect(policyEvents(h, taskId).map((e) => e.action)).toEqual(['approve_once', 'approve_once']);
  });

  it.skipIf(!machineSandbox.ok)(
    'P8.06 the same approval a second time, and a call with other arguments, take the normal path: a ToolRequest',
    async () => {
      const ws = workspaceWithFiles();
      writeRules(ws, {
        enabled: true,
        rules: [{ match: { tool: 'run_command', args: { command: { equals: 'echo once' } } }, action: 'approve_once' }],
      });
      const h = await engineHarness(
        [
          call('run_command', { command: 'echo other' }),
          call('run_command', { command: 'echo once' }),
          call('run_command', { command: 'echo once', timeout_ms: 5000 }),
          complete(),
        ],
        { policyTools: true, workspace: ws, sandbox: machineSandbox },
      );
      const { taskId, jobId } = h.createTask('Run things');
      // Other arguments: asks, and the approval is not used up.
      expect((await h.waitFor(jobId, SETTLED)).waitReason).toBe('tool_request');
      expect(policyEvents(h, taskId)).toEqual([]);
      const [first] = toolRequests(h, taskId);
      expect(first).toMatchObject({ status: 'pending', args: { command: 'echo other' } });
      h.maestro.invoke('decideToolRequest', { taskId, requestId: first?.id as string, decision: 'approve' });

      // The resumed run (a new run of the same job) uses the approval once; the second time asks.
      await h.waitFor(jobId, SETTLED);
      expect(h.maestro.store.jobs.get(jobId)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
      expect(results(h.server.requests[2]).at(-1)).toBe('Exit code: 0\nonce\n');
      const requests = toolRequests(h, taskId);
      expect(requests.map((r) => [r.status, r.args])).toEqual([
        ['approved', { command: 'echo other' }],
        ['pending', { command: 'echo once', timeout_ms: 5000 }],
      ]);
      expect(policyEvents(h, taskId).map((e) => e.action)).toEqual(['approve_once']);
    },
  );

  it.skipIf(!machineSandbox.ok)('P8.06 a used approval stays used when the same job comes back', async () => {
    const ws = workspaceWithFiles();
    writeRules(ws, {
      enabled: true,
      rules: [{ match: { tool: 'run_command', args: { command: { equals: 'echo once' } } }, action: 'approve_once' }],
    });
    const h = await engineHarness(
      [
        call('run_command', { command: 'echo once' }),
        call('run_command', { command: 'echo in between' }),
        call('run_command', { command: 'echo once' }, 'again'),
      ],
      { policyTools: true, workspace: ws, sandbox: machineSandbox },
    );
    const { taskId, jobId } = h.createTask('Run things');
    await h.waitFor(jobId, SETTLED);
    const [between] = toolRequests(h, taskId);
    expect(between?.args).toEqual({ command: 'echo in between' });
    h.maestro.invoke('decideToolRequest', { taskId, requestId: between?.id as string, decision: 'approve' });
    await h.waitFor(jobId, SETTLED);
    expect(toolRequests(h, taskId).map((r) => [r.callId, r.status])).toEqual([
      [between?.callId, 'approved'],
      ['again', 'pending'],
    ]);
    expect(results(h.server.requests[2]).slice(0, 2)).toEqual(['Exit code: 0\nonce\n', 'Exit code: 0\nin between\n']);
  });

  it('P8.06 an approval that cannot be stored as used is not granted: the call asks as usual, and a warning is logged', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ws = workspaceWithFiles();
    writeRules(ws, {
      enabled: true,
      rules: [{ match: { tool: 'run_command', args: { command: { equals: 'echo once' } } }, action: 'approve_once' }],
    });
    let snapshots = '';
    const h = await engineHarness(
      [
        () => {
          // The snapshot is taken; now its folder becomes a file, so no snapshot can be written any more.
          fs.rmSync(snapshots, { recursive: true });
          fs.writeFileSync(snapshots, 'not a folder');
          return call('run_command', { command: 'echo once' });
        },
      ],
      { policyTools: true, workspace: ws },
    );
    const { taskId, jobId } = h.createTask('Run it');
    snapshots = path.dirname(snapshotFile(runtimeDir(h.dataDir, taskId), jobId));
    expect((await h.waitFor(jobId, SETTLED)).waitReason).toBe('tool_request');
    expect(toolRequests(h, taskId).map((r) => r.args)).toEqual([{ command: 'echo once' }]);
    expect(policyEvents(h, taskId)).toEqual([]);
    expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
      expect.stringMatching(/the one-time approval of rule rules\[0\] could not be stored, so it is not used/),
    ]);
    warn.mockRestore();
  });
});
