// A person acts through any of several hosts on one PostgreSQL database (issue 25 point 3) on a job another runs: a
// comment reaches it, a cancel stops it, an approval resumes it elsewhere with one transcript; two decisions, one wins.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type HostProcess, until } from '../../test-support/headless-process';
import { hasPg } from '../../test-support/pg-test-db';
import { startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { complete, servers, sharedHost, sharedHosts } from '../../test-support/shared-hosts-kit';
import { tempDir } from '../../test-support/temp-maestro';

describe.skipIf(!hasPg())('several hosts on one PostgreSQL database (real PostgreSQL 15, real host processes)', () => {
  it('a comment posted to one host reaches the job running on another; a cancel through a third stops it there at once', {
    timeout: 120_000,
  }, async () => {
    const server = await startScriptedLlmServer({
      script: [
        // The first turn takes a while: the comment arrives meanwhile and is in the next request.
        { delayMs: 1_500, toolCalls: [{ name: 'list_dir', arguments: { path: '.' } }] },
        { fault: 'hang' },
      ],
    });
    servers.push(server);
    const workspace = tempDir('maestro-ws-');
    // Only the runner serves the task's folder; the other two serve another one.
    const [[runner], [other, third]] = await Promise.all([
      sharedHosts(['runner'], server, workspace),
      sharedHosts(['other', 'third'], server, workspace, 30, ['--serves', tempDir('maestro-elsewhere-')]),
    ]);
    const created = await (runner as HostProcess).call('POST', '/tasks', {
      instruction: 'listen to comments',
      title: 'comments',
      workspacePath: workspace,
    });
    const taskId = created.json.task.id as string;
    await until('the first model call', async () => (server.requests.length > 0 ? true : undefined), 20_000);
    const posted = await (other as HostProcess).call('POST', `/tasks/${taskId}/comments`, { body: 'use the README' });
    expect(posted.status).toBe(201);
    await until('the second model call', async () => (server.requests.length > 1 ? true : undefined), 20_000);
    expect(JSON.stringify(server.requests[1]?.body?.messages ?? [])).toContain('use the README');

    const cancelledAt = Date.now();
    expect((await (third as HostProcess).call('POST', `/tasks/${taskId}/cancel`)).status).toBe(200);
    // The runner let go of the model's stream at once (a hang ends when its client closes it), not at a heartbeat.
    await until('the runner to close the model call', async () => (server.hangsEnded > 0 ? true : undefined), 10_000);
    expect(Date.now() - cancelledAt).toBeLessThan(5_000);
    const job = (await (runner as HostProcess).call('GET', `/tasks/${taskId}`)).json.jobs[0];
    expect(job).toMatchObject({ status: 'cancelled', host: 'runner' });
    expect(server.requests).toHaveLength(2);
  });

  it('a job parked for an approval on a host that then stops: the person approves through another host, which resumes the job with its earlier turns; both hosts show the same transcript', {
    timeout: 120_000,
  }, async () => {
    const server = await startScriptedLlmServer({
      script: [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo shared-$((40 + 2))' }, id: 'call_park' }] },
        complete('resumed on another host'),
      ],
    });
    servers.push(server);
    const workspace = tempDir('maestro-ws-');
    const alphaDir = tempDir();
    const alpha = await sharedHost('alpha', alphaDir, server, workspace);
    const created = await alpha.call('POST', '/tasks', {
      instruction: 'run the shared command',
      title: 'park and move',
      workspacePath: workspace,
    });
    const taskId = created.json.task.id as string;
    const parked = await until(
      'the job to park for an approval',
      async () => {
        const job = (await alpha.call('GET', `/tasks/${taskId}`)).json.jobs[0];
        return job?.status === 'waiting_human' ? job : undefined;
      },
      30_000,
    );
    expect(parked).toMatchObject({ waitReason: 'tool_request', host: 'alpha' });
    const [request] = (await alpha.call('GET', `/tasks/${taskId}/tool-requests`)).json.requests;
    expect(request).toMatchObject({ tool: 'run_command', status: 'pending' });
    // The replayable conversation so far (the unanswered call is left out until it is answered).
    const before = (await alpha.call('GET', `/tasks/${taskId}/transcript`)).json.entries;
    expect(JSON.stringify(before)).toContain('run the shared command');

    alpha.child.kill('SIGTERM');
    expect(await alpha.exited).toMatchObject({ code: 0 });
    // Nothing of the conversation is in alpha's data dir: another host could not have read it there.
    expect(fs.existsSync(path.join(alphaDir, 'runs', taskId, 'transcript.jsonl'))).toBe(false);

    const [beta] = await sharedHosts(['beta'], server, workspace);
    const decided = await (beta as HostProcess).call('POST', `/tasks/${taskId}/tool-requests/${request.id}/decide`, {
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    const job = await until(
      'the job to succeed on beta',
      async () => {
        const job = (await (beta as HostProcess).call('GET', `/tasks/${taskId}`)).json.jobs[0];
        return job?.status === 'succeeded' ? job : undefined;
      },
      30_000,
    );
    expect(job).toMatchObject({ host: 'beta', result: 'resumed on another host' });

    // Beta's request went on from alpha's: the same messages first, then the approved call's result.
    type Message = { role: string; content?: string; tool_call_id?: string; tool_calls?: { id: string }[] };
    const chats = server.requests.filter((r) => r.path.endsWith('/chat/completions'));
    expect(chats).toHaveLength(2);
    const first = (chats[0]?.body?.messages ?? []) as Message[];
    const resumed = (chats[1]?.body?.messages ?? []) as Message[];
    expect(first.map((m) => m.role)).toEqual(['system', 'user']);
    expect(resumed.slice(0, first.length)).toEqual(first);
    expect(resumed.find((m) => m.role === 'assistant')?.tool_calls?.map((c) => c.id)).toEqual(['call_park']);
    const result = resumed.find((m) => m.role === 'tool' && m.tool_call_id === 'call_park');
    expect(result?.content).toContain('shared-42');

    // Alpha started again on its own data dir shows what beta shows: one transcript, in the database.
    const again = await sharedHost('alpha', alphaDir, server, workspace);
    const onBeta = (await (beta as HostProcess).call('GET', `/tasks/${taskId}/transcript`)).json.entries;
    const onAlpha = (await again.call('GET', `/tasks/${taskId}/transcript`)).json.entries;
    expect(onAlpha).toEqual(onBeta);
    expect(JSON.stringify(onBeta)).toContain('shared-42');
    expect(onBeta.length).toBeGreaterThan(before.length);
  });

  it('two hosts deciding the same approval at the same time: one wins, the other is told (409 already_decided); the command runs once', {
    timeout: 120_000,
  }, async () => {
    const server = await startScriptedLlmServer({
      script: [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo raced-$((40 + 2))' }, id: 'call_race' }] },
        complete('after the decision'),
      ],
    });
    servers.push(server);
    const workspace = tempDir('maestro-ws-');
    const [alpha, beta, gamma] = await sharedHosts(['alpha', 'beta', 'gamma'], server, workspace);
    const created = await (alpha as HostProcess).call('POST', '/tasks', {
      instruction: 'run the raced command',
      title: 'race',
      workspacePath: workspace,
    });
    const taskId = created.json.task.id as string;
    await until(
      'the job to park for an approval',
      async () => {
        const job = (await (alpha as HostProcess).call('GET', `/tasks/${taskId}`)).json.jobs[0];
        return job?.status === 'waiting_human' ? job : undefined;
      },
      30_000,
    );
    const [request] = (await (alpha as HostProcess).call('GET', `/tasks/${taskId}/tool-requests`)).json.requests;
    const route = `/tasks/${taskId}/tool-requests/${request.id}/decide`;
    const answers = await Promise.all([
      (beta as HostProcess).call('POST', route, { decision: 'approve' }),
      (gamma as HostProcess).call('POST', route, { decision: 'deny', reason: 'not now' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)?.json.error.code).toBe('already_decided');
    const won = answers.find((a) => a.status === 200)?.json.request.status as string;
    const job = await until(
      'the job to end',
      async () => {
        const job = (await (alpha as HostProcess).call('GET', `/tasks/${taskId}`)).json.jobs[0];
        return job?.status === 'succeeded' ? job : undefined;
      },
      30_000,
    );
    expect(job.result).toBe('after the decision');
    const [after] = (await (gamma as HostProcess).call('GET', `/tasks/${taskId}/tool-requests`)).json.requests;
    expect(after.status).toBe(won);
    // The model heard one answer to its call: the command's output once if approved, the denial otherwise.
    const answered = JSON.stringify(server.requests[1]?.body?.messages ?? []);
    expect(answered.split('raced-42').length - 1).toBe(won === 'approved' ? 1 : 0);
    expect(server.requests).toHaveLength(2);
  });
});
