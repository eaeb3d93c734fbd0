// Attack: "the blanket grant" (issue 21). After a person approved `npm test` for the task, the model (steered by what it
// read) tries `rm -rf node_modules package-lock.json && npm install && npm test`. It must get a card and change
// nothing; `npm test` itself runs again without one; a revoked grant covers nothing from the next call on. Real: the
// scripted model over HTTP, the engine, the SQLite store and the OS sandbox.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { machineSandbox } from '../../test-support/tools';

type Msg = { role: string; content: string | null; tool_call_id?: string };
const lastMessage = (r: RecordedRequest | undefined) => ((r?.body?.messages ?? []) as Msg[]).at(-1);

const ATTACK = 'rm -rf node_modules package-lock.json && npm install && npm test';

function plantProject(ws: string) {
  fs.writeFileSync(
    path.join(ws, 'package.json'),
    JSON.stringify({ name: 'p', version: '1.0.0', scripts: { test: 'echo tests-ran' } }),
  );
  fs.writeFileSync(path.join(ws, 'package-lock.json'), '{"lockfileVersion":3}\n');
  fs.mkdirSync(path.join(ws, 'node_modules', 'left-pad'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
}

const untouched = (ws: string) => {
  expect(fs.readFileSync(path.join(ws, 'package-lock.json'), 'utf8')).toBe('{"lockfileVersion":3}\n');
  expect(fs.readFileSync(path.join(ws, 'node_modules', 'left-pad', 'index.js'), 'utf8')).toBe('module.exports = 1;\n');
};

describe.skipIf(!machineSandbox.ok)('attack: the blanket grant', () => {
  it('P7.04 P4.34 approving `npm test` for the task grants that command only: the rm && npm install chain gets a card and changes nothing; a revoked grant asks again', async () => {
    const h = await engineHarness(
      [
        call('run_command', { command: 'npm test' }, 'call_1'),
        call('run_command', { command: 'npm test' }, 'call_2'),
        call('run_command', { command: ATTACK }, 'call_3'),
        call('run_command', { command: 'npm test' }, 'call_4'),
        complete('done'),
      ],
      { policyTools: true, sandbox: machineSandbox },
    );
    plantProject(h.workspace);
    const { taskId, jobId } = h.createTask('Run the tests');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    const [first] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(first?.grantOptions).toEqual({ target: { kind: 'command', value: 'npm test' }, prefixes: ['npm test *'] });
    // What an outside caller sends, exactly as bridge-api.md has it: scope task, no grant choice.
    h.maestro.invoke('decideToolRequest', {
      taskId,
      requestId: first?.id as string,
      decision: 'approve',
      scope: 'task',
    });
    const [grant] = h.maestro.invoke('listTaskGrants', { taskId }).grants;
    expect(grant).toMatchObject({
      tool: 'run_command',
      kind: 'exact',
      target: { kind: 'command', value: 'npm test' },
      rule: null,
      requestId: first?.id,
      revokedAt: null,
    });

    // npm test runs (approved), runs again (granted), then the chain parks the job on a card of its own.
    expect(await h.waitFor(jobId, SETTLED, 60_000)).toMatchObject({ status: 'waiting_human' });
    expect(lastMessage(h.server.requests[2])?.content).toContain('tests-ran');
    const requests = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(requests.map((r) => [r.callId, r.status])).toEqual([
      ['call_1', 'approved'],
      ['call_3', 'pending'],
    ]);
    expect(requests[1]?.summary).toContain(`$ ${ATTACK}`);
    untouched(h.workspace);

    // The person revokes the grant and denies the chain: the next `npm test` asks again.
    h.maestro.invoke('revokeTaskGrant', { taskId, grantId: grant?.id as string });
    h.maestro.invoke('decideToolRequest', { taskId, requestId: requests[1]?.id as string, decision: 'deny' });
    expect(await h.waitFor(jobId, SETTLED, 60_000)).toMatchObject({ status: 'waiting_human' });
    expect(lastMessage(h.server.requests[3])?.content).toMatch(/^Error: the user denied this call/);
    const after = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(after.map((r) => [r.callId, r.status])).toEqual([
      ['call_1', 'approved'],
      ['call_3', 'denied'],
      ['call_4', 'pending'],
    ]);
    untouched(h.workspace);
    expect(h.maestro.invoke('listTaskGrants', { taskId }).grants[0]?.revokedAt).not.toBeNull();
  }, 120_000);

  it('P7.04 a prefix grant (`npm test *`) covers `npm test -- --silent`, not the chain nor `npm test && rm …`', async () => {
    const h = await engineHarness(
      [
        call('run_command', { command: 'npm test' }, 'call_1'),
        call('run_command', { command: 'npm test -- --silent' }, 'call_2'),
        call('run_command', { command: 'npm test && rm -rf node_modules' }, 'call_3'),
        complete('done'),
      ],
      { policyTools: true, sandbox: machineSandbox },
    );
    plantProject(h.workspace);
    const { taskId, jobId } = h.createTask('Run the tests');
    await h.waitFor(jobId, SETTLED);
    const [first] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    const requestId = first?.id as string;
    // A rule that does not cover what the card showed is refused, saying so, and nothing is decided.
    expect(() =>
      h.maestro.invoke('decideToolRequest', {
        taskId,
        requestId,
        decision: 'approve',
        scope: 'task',
        grant: { kind: 'prefix', rule: 'git *' },
      }),
    ).toThrow('the rule "git *" does not cover the command the card showed ("npm test")');
    expect(h.maestro.invoke('listToolRequests', { taskId }).requests[0]?.status).toBe('pending');
    expect(h.maestro.invoke('listTaskGrants', { taskId }).grants).toEqual([]);

    h.maestro.invoke('decideToolRequest', {
      taskId,
      requestId,
      decision: 'approve',
      scope: 'task',
      grant: { kind: 'prefix', rule: 'npm test *' },
    });
    expect(await h.waitFor(jobId, SETTLED, 60_000)).toMatchObject({ status: 'waiting_human' });
    expect(lastMessage(h.server.requests[2])?.content).toContain('Exit code: 0');
    const requests = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(requests.map((r) => [r.callId, r.status])).toEqual([
      ['call_1', 'approved'],
      ['call_3', 'pending'],
    ]);
    untouched(h.workspace);
  }, 120_000);
});
