// The Auto Prompter's Policy Events and its off switch, through the Worker, engine, scripted LLM server and SQLite:
// what is recorded and what is not (spec §4.1, P8.07–P8.11), and a broken rules file.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { call, complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest, ScriptEntry } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';
import { machineSandbox } from '../../test-support/tools';

const writeRules = (workspace: string, settings: unknown) => {
  fs.mkdirSync(path.join(workspace, '.maestro'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.maestro', 'auto-prompter.json'), JSON.stringify(settings));
};
const results = (r: RecordedRequest | undefined) =>
  ((r?.body?.messages ?? []) as { role: string; content: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
/** The Policy Events as stored: the rows of the events table, payload as written. */
const storedPolicyRows = (h: Harness) =>
  h.maestro.store.db
    .prepare<[], { type: string; task_id: string; job_id: string; payload: string }>(
      "SELECT type, task_id, job_id, payload FROM events WHERE type = 'policy.fired' ORDER BY seq",
    )
    .all();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Policy Events', () => {
  it('P8.07 every firing is a persisted Policy Event with the allowlisted fields only, pushed live and listed for the task', async () => {
    const ws = tempDir('maestro-ws-');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    writeRules(ws, {
      enabled: true,
      rules: [
        { id: 'note', match: { tool: 'read_file' }, action: 'instruct', text: 'Keep quotes short.' },
        { match: { tool: 'read_file', args: { path: { glob: '*.txt' } } }, action: 'deny', reason: 'No text files.' },
      ],
    });
    const h = await engineHarness([call('read_file', { path: 'a.txt' }), complete()], {
      policyTools: true,
      workspace: ws,
    });
    const { taskId, jobId } = h.createTask('Read a');
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');

    const rows = storedPolicyRows(h);
    expect(rows.map((r) => [r.task_id, r.job_id, JSON.parse(r.payload)])).toEqual([
      [taskId, jobId, { ruleIndex: 0, ruleId: 'note', action: 'instruct', tool: 'read_file' }],
      [taskId, jobId, { ruleIndex: 1, ruleId: null, action: 'deny', tool: 'read_file' }],
    ]);
    const listed = h.maestro.invoke('listTaskEvents', { taskId }).events.filter((e) => e.type === 'policy.fired');
    for (const e of listed) {
      expect(Object.keys(e).sort()).toEqual([
        'action',
        'jobId',
        'ruleId',
        'ruleIndex',
        'seq',
        'taskId',
        'tool',
        'ts',
        'type',
      ]);
      expect(e.seq).toBeGreaterThan(0);
    }
    expect(listed).toHaveLength(2);
    const live = h.events.filter((e) => e.type === 'policy.fired');
    expect(live.map((e) => e.seq)).toEqual(listed.map((e) => e.seq));
  });

  it('P8.08 no rule fires: no Policy Event, and the tools run on the normal path', async () => {
    const ws = tempDir('maestro-ws-');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
    writeRules(ws, {
      enabled: true,
      rules: [
        { match: { tool: 'write_file' }, action: 'deny', reason: 'No writing.' },
        { match: { tool: 'read_file', args: { path: { glob: 'secret/**' } } }, action: 'instruct', text: 'Careful.' },
        { match: { tool: 'run_command', args: { command: { equals: 'npm test' } } }, action: 'approve_once' },
      ],
    });
    const h = await engineHarness([call('read_file', { path: 'a.txt' }), call('run_command', { command: 'ls' })], {
      policyTools: true,
      workspace: ws,
    });
    const { taskId, jobId } = h.createTask('Look');
    expect((await h.waitFor(jobId, SETTLED)).waitReason).toBe('tool_request');
    expect(results(h.server.requests[1])).toEqual(['     1\talpha']);
    expect(h.maestro.invoke('listToolRequests', { taskId }).requests).toHaveLength(1);
    expect(storedPolicyRows(h)).toEqual([]);
    expect(h.events.some((e) => e.type === 'policy.fired')).toBe(false);
  });
});

/** One task's run with `rules` in place (undefined: no file): what the model was sent and what was recorded. */
async function observedRun(rules: unknown) {
  const ws = tempDir('maestro-ws-');
  fs.writeFileSync(path.join(ws, 'a.txt'), 'alpha\n');
  if (rules !== undefined) writeRules(ws, rules);
  const script: ScriptEntry[] = [
    call('read_file', { path: 'a.txt' }, 'c1'),
    call('write_file', { path: 'b.txt', content: 'beta\n' }, 'c2'),
    call('run_command', { command: 'cat b.txt' }, 'c3'),
  ];
  const h = await engineHarness(script, { policyTools: true, workspace: ws });
  const { taskId, jobId } = h.createTask('Read, write, run');
  await h.waitFor(jobId, SETTLED);
  const request = h.maestro.invoke('listToolRequests', { taskId }).requests[0];
  h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
  h.server.push(complete('all done'));
  const job = await h.waitFor(jobId, ['succeeded', 'failed']);
  // Ids, times and paths differ between two runs by nature; everything else must not.
  const normalize = (value: unknown) =>
    JSON.parse(
      JSON.stringify(value)
        .replaceAll(taskId, '<task>')
        .replaceAll(jobId, '<job>')
        .replaceAll(request?.id as string, '<request>')
        .replaceAll(ws, '<ws>')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z/g, '<time>')
        .replace(/"(durationMs|latencyMs|ttftMs|seq)":\d+/g, '"$1":0')
        .replace(/"(id|workerId)":"[^"]*"/g, '"$1":"<id>"'),
    );
  const events = h.events.filter((e) => e.seq > 0).map(({ seq: _s, ts: _t, ...rest }) => rest);
  return {
    job: normalize({ status: job.status, result: job.result, error: job.error }),
    requests: normalize(h.server.requests.map((r) => r.body?.messages)),
    events: normalize(events),
    entries: normalize(h.maestro.store.logEntries.listForTask(taskId).map(({ kind, body }) => ({ kind, body }))),
    workspace: fs.readdirSync(ws).filter((f) => f !== '.maestro'),
  };
}

describe('the off switch', () => {
  it('P8.09 disabled: results, model requests, events and log entries are identical to a run without a rules file', async () => {
    const without = await observedRun(undefined);
    const disabled = await observedRun({
      enabled: false,
      rules: [
        { match: { tool: 'read_file' }, action: 'deny', reason: 'Would deny.' },
        { match: { tool: '*' }, action: 'instruct', text: 'Would instruct.' },
        { match: { tool: 'run_command', args: { command: { regex: '.' } } }, action: 'approve_once' },
      ],
    });
    expect(without.job).toEqual({ status: 'succeeded', result: 'all done', error: null });
    expect(disabled).toEqual(without);
    expect(JSON.stringify(disabled.events)).not.toContain('policy.fired');
    expect(JSON.stringify(disabled.requests)).not.toContain('Would');
    // The same rules switched on do change the run: the comparison above could have failed.
    const enabled = await observedRun({
      enabled: true,
      rules: [{ match: { tool: 'read_file' }, action: 'deny', reason: 'Would deny.' }],
    });
    expect(enabled.requests).not.toEqual(without.requests);
  });
});

describe('what a Policy Event may hold', () => {
  it('P8.10 no secret, raw argument, reasoning or prompt text reaches the stored event or what the timeline shows', async () => {
    const SECRET = 'sk-live-9F2c7Q0pZx81mWq4';
    const ARG = 'unique-arg-value-5be1c9';
    const THINKING = 'hidden-chain-of-thought-4d07';
    const PROMPT = 'prompt-marker-a83f11';
    const REASON = 'reason-text-0c6e';
    const NOTE = 'instruction-text-71d2';
    const ws = tempDir('maestro-ws-');
    writeRules(ws, {
      enabled: true,
      rules: [
        { id: 'net', match: { tool: 'run_command' }, action: 'instruct', text: NOTE },
        {
          id: 'no-fetch',
          match: { tool: 'run_command', args: { command: { regex: 'curl' } } },
          action: 'deny',
          reason: REASON,
        },
      ],
    });
    const command = `curl -H "Authorization: Bearer ${SECRET}" https://example.invalid/${ARG}`;
    const h = await engineHarness(
      [
        { reasoning: THINKING, text: 'Fetching.', toolCalls: [{ name: 'run_command', arguments: { command } }] },
        complete(),
      ],
      { policyTools: true, workspace: ws },
    );
    const { taskId, jobId } = h.createTask(`Fetch the page. ${PROMPT}`);
    expect((await h.waitFor(jobId, SETTLED)).status).toBe('succeeded');
    // The run really carried them: the model was sent the prompt, and the call was denied.
    expect(JSON.stringify(h.server.requests[0]?.body)).toContain(PROMPT);
    expect(results(h.server.requests[1])[0]).toContain(REASON);

    const stored = storedPolicyRows(h);
    const listed = h.maestro.invoke('listTaskEvents', { taskId }).events.filter((e) => e.type === 'policy.fired');
    expect(stored.map((r) => JSON.parse(r.payload).action)).toEqual(['instruct', 'deny']);
    const everything = JSON.stringify([stored, listed, h.events.filter((e) => e.type === 'policy.fired')]);
    for (const planted of [SECRET, ARG, THINKING, PROMPT, REASON, NOTE, 'curl', 'Bearer']) {
      expect(everything, planted).not.toContain(planted);
    }
  });
});

describe('recording is best effort', () => {
  it.skipIf(!machineSandbox.ok)(
    'P8.11 the events insert fails: the agent goes on, the deny still applies, the approval still runs, a warning is logged',
    async () => {
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const ws = tempDir('maestro-ws-');
      fs.mkdirSync(path.join(ws, 'build'));
      writeRules(ws, {
        enabled: true,
        rules: [
          {
            id: 'no-rm',
            match: { tool: 'run_command', args: { command: { regex: '^rm ' } } },
            action: 'deny',
            reason: 'Keep files.',
          },
          {
            id: 'echo',
            match: { tool: 'run_command', args: { command: { equals: 'echo ok' } } },
            action: 'approve_once',
          },
        ],
      });
      const h = await engineHarness(
        [
          call('run_command', { command: 'rm -rf build' }),
          call('run_command', { command: 'echo ok' }),
          complete('fine'),
        ],
        { policyTools: true, workspace: ws, sandbox: machineSandbox },
      );
      // A real failing insert: the events table refuses Policy Events (as a full disk or a locked file would).
      h.maestro.store.db.exec(`CREATE TRIGGER refuse_policy_events BEFORE INSERT ON events
      WHEN NEW.type = 'policy.fired' BEGIN SELECT RAISE(ABORT, 'disk I/O error (test)'); END`);
      const { taskId, jobId } = h.createTask('Clean, then echo');
      const job = await h.waitFor(jobId, SETTLED);
      expect(job).toMatchObject({ status: 'succeeded', result: 'fine' });
      expect(results(h.server.requests[1])).toEqual([
        'Error: the Auto Prompter denied this run_command call (rule no-rm): Keep files.',
      ]);
      expect(results(h.server.requests[2]).at(-1)).toBe('Exit code: 0\nok\n');
      expect(fs.existsSync(path.join(ws, 'build'))).toBe(true);
      expect(h.maestro.invoke('listToolRequests', { taskId }).requests).toEqual([]);
      expect(storedPolicyRows(h)).toEqual([]);
      const warnings = warn.mock.calls.map((c) => String(c[0]));
      expect(warnings).toEqual([
        expect.stringMatching(
          /rule no-rm \(deny run_command\) could not be recorded \(disk I\/O error \(test\)\); the decision still applies/,
        ),
        expect.stringMatching(/rule echo \(approve_once run_command\) could not be recorded/),
      ]);
      // The other events of the run were recorded as usual.
      const types = new Set(h.maestro.store.events.lastForTask(taskId, 1000).map((e: MaestroEvent) => e.type));
      expect(types).toContain('tool.finished');
    },
  );
});

describe('a broken rules file', () => {
  it('fails the job before the first LLM request, naming the file and the field; nothing runs', async () => {
    const ws = tempDir('maestro-ws-');
    writeRules(ws, { enabled: true, rules: [{ match: { tool: 'run_command' }, action: 'approve_once' }] });
    const h = await engineHarness([call('run_command', { command: 'echo no' })], { policyTools: true, workspace: ws });
    const { jobId } = h.createTask('Anything');
    const job = await h.waitFor(jobId, SETTLED);
    expect(job.status).toBe('failed');
    expect(job.error).toContain(path.join(ws, '.maestro', 'auto-prompter.json'));
    expect(job.error).toContain('rules.0.match.args: approve_once is bound to the arguments');
    expect(h.server.requests).toHaveLength(0);
  });
});
