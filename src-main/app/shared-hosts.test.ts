// Several hosts on one PostgreSQL database (issue 25 point 3), each a real headless process with its own data dir,
// all serving one workspace folder and calling one scripted model: every job runs exactly once, each host claims some;
// a host SIGKILLed mid-job has its job resumed by another after the lease; a job's events reach an SSE client of a
// host that did not run it; a job parked on a host that then stops is resumed by another with its conversation, which
// every host shows the same (the transcript is in the database, not in the first host's data dir).

import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type HostProcess, startHostProcess, stopHosts, until } from '../../test-support/headless-process';
import { hasPg, pgUrlForTest } from '../../test-support/pg-test-db';
import {
  type ScriptedLlmServer,
  type ScriptedStep,
  startScriptedLlmServer,
} from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';

// Three data dirs of a thousand tasks each take a while to stop and remove.
vi.setConfig({ hookTimeout: 60_000 });

const complete = (message: string): ScriptedStep => ({
  toolCalls: [{ name: 'complete', arguments: { status: 'success', message } }],
});

const hosts: HostProcess[] = [];
const servers: ScriptedLlmServer[] = [];
let db: pg.Client;
let url: string;

afterEach(async () => {
  await stopHosts(hosts);
  for (const server of servers.splice(0)) await server.close();
});

afterAll(async () => {
  await db?.end();
});

async function sharedHosts(
  names: string[],
  server: ScriptedLlmServer,
  workspace: string,
  lease = 30,
  /** More flags for every host, e.g. --serves. */
  flags: string[] = [],
) {
  return Promise.all(names.map((name) => sharedHost(name, tempDir(), server, workspace, lease, flags)));
}

/** One host of the shared database on `dataDir` (a host started again on its own data dir). */
async function sharedHost(
  name: string,
  dataDir: string,
  server: ScriptedLlmServer,
  workspace: string,
  lease = 30,
  flags: string[] = [],
): Promise<HostProcess> {
  const host = await startHostProcess(
    dataDir,
    workspace,
    {
      MAESTRO_LLM_BASE_URL: server.baseURL,
      MAESTRO_LLM_API_KEY: 'sk-test',
      MAESTRO_LLM_MODEL: 'scripted',
      MAESTRO_DATABASE_URL: url,
      MAESTRO_LEASE_SECONDS: String(lease),
    },
    ['--host-name', name, '--concurrency', '8', ...flags],
  );
  hosts.push(host);
  return host;
}

describe.skipIf(!hasPg())('several hosts on one PostgreSQL database (real PostgreSQL 15, real host processes)', () => {
  beforeAll(async () => {
    url = (await pgUrlForTest()) as string;
    db = new pg.Client({ connectionString: url });
    await db.connect();
  });

  it('three hosts, 1,000 tasks, a 0-latency model: every job runs exactly once, each host runs some, GET /hosts lists all three', {
    timeout: 300_000,
  }, async () => {
    const TASKS = 1000;
    const server = await startScriptedLlmServer({ script: Array.from({ length: TASKS }, () => complete('done')) });
    servers.push(server);
    const workspace = tempDir('maestro-ws-');
    const trio = await sharedHosts(['alpha', 'beta', 'gamma'], server, workspace);

    // Created through all three, 8 at a time per host.
    const ids: string[] = [];
    for (let i = 0; i < TASKS; i += 24) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(24, TASKS - i) }, (_, k) =>
          (trio[(i + k) % 3] as HostProcess).call('POST', '/tasks', {
            instruction: `task ${i + k}`,
            title: `task ${i + k}`,
            workspacePath: workspace,
          }),
        ),
      );
      for (const r of batch) {
        expect(r.status).toBe(201);
        ids.push(r.json.task.id);
      }
    }
    expect(new Set(ids).size).toBe(TASKS);

    const done = await until(
      'every job to end',
      async () => {
        const { rows } = await db.query<{ status: string; n: number }>(
          'SELECT status, count(*)::int AS n FROM jobs GROUP BY status',
        );
        const ended = rows.filter((r) => r.status === 'succeeded' || r.status === 'failed');
        return ended.reduce((sum, r) => sum + r.n, 0) === TASKS ? rows : undefined;
      },
      240_000,
    );
    expect(done).toEqual([{ status: 'succeeded', n: TASKS }]);

    // Exactly once: one job per task, each claimed once (attempt 1), and one model call per job.
    const { rows: jobs } = await db.query<{ task_id: string; attempt: number; host: string }>(
      'SELECT task_id, attempt, host FROM jobs',
    );
    expect(jobs).toHaveLength(TASKS);
    expect(new Set(jobs.map((j) => j.task_id)).size).toBe(TASKS);
    expect(jobs.every((j) => j.attempt === 1)).toBe(true);
    expect(server.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(TASKS);
    const byHost = new Map<string, number>();
    for (const j of jobs) byHost.set(j.host, (byHost.get(j.host) ?? 0) + 1);
    console.log('jobs run by host:', Object.fromEntries(byHost));
    expect([...byHost.keys()].sort()).toEqual(['alpha', 'beta', 'gamma']);

    // Every host answers for every task, whichever ran it.
    const sample = ids[ids.length - 1] as string;
    for (const h of trio) {
      const task = await h.call('GET', `/tasks/${sample}`);
      expect(task.status).toBe(200);
      expect(task.json.jobs[0]).toMatchObject({
        status: 'succeeded',
        host: expect.stringMatching(/^(alpha|beta|gamma)$/),
      });
    }
    const listed = await (trio[0] as HostProcess).call('GET', '/hosts');
    expect(listed.json.hosts.map((h: { name: string }) => h.name)).toEqual(['alpha', 'beta', 'gamma']);
    for (const h of listed.json.hosts) expect(h.serves).toContain(workspace);
  });

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

  it('§1 CLAIM a job that names a profile only another host has is not run by a host without it: it stays queued for them', {
    timeout: 120_000,
  }, async () => {
    const server = await startScriptedLlmServer({ script: [] });
    servers.push(server);
    const workspace = tempDir('maestro-ws-');
    // `keeper` has the profile but does not serve the folder; `runner` serves the folder but lacks the profile.
    const [[runner], [keeper]] = await Promise.all([
      sharedHosts(['runner'], server, workspace),
      sharedHosts(['keeper'], server, workspace, 30, ['--serves', tempDir('maestro-elsewhere-')]),
    ]);
    const saved = await (keeper as HostProcess).call('POST', '/profiles', {
      name: 'gpu',
      baseURL: server.baseURL,
      model: 'scripted',
    });
    expect(saved.status).toBe(201);
    const created = await (keeper as HostProcess).call('POST', '/tasks', {
      instruction: 'needs the gpu profile',
      title: 'gpu',
      workspacePath: workspace,
      profile: 'gpu',
    });
    expect(created.status).toBe(201);
    const taskId = created.json.task.id as string;
    await new Promise((r) => setTimeout(r, 3_000));
    const job = (await (runner as HostProcess).call('GET', `/tasks/${taskId}`)).json.jobs[0];
    expect(job).toMatchObject({ status: 'queued', host: null, attempt: 0 });
    expect(server.requests).toHaveLength(0);
  });

  it('a host starting beside a live one of the same name leaves that one’s running job alone (only its own data dir’s are recovered at start)', {
    timeout: 120_000,
  }, async () => {
    const server = await startScriptedLlmServer({ script: [{ fault: 'hang' }] });
    servers.push(server);
    const workspace = tempDir('maestro-ws-');
    const [first] = await sharedHosts(['same'], server, workspace);
    const created = await (first as HostProcess).call('POST', '/tasks', {
      instruction: 'keep running',
      title: 'running',
      workspacePath: workspace,
    });
    const taskId = created.json.task.id as string;
    await until('the model call to start', async () => (server.requests.length > 0 ? true : undefined), 20_000);
    const [second] = await sharedHosts(['same'], server, workspace);
    await new Promise((r) => setTimeout(r, 2_000));
    const job = (await (second as HostProcess).call('GET', `/tasks/${taskId}`)).json.jobs[0];
    expect(job).toMatchObject({ status: 'running', attempt: 1, host: 'same' });
    expect(server.requests).toHaveLength(1);
    expect(server.hangsEnded).toBe(0);
  });

  it('a host SIGKILLed mid-job: another host that serves the folder resumes the job after the lease (within two), and its events reach an SSE client of a third host', {
    timeout: 120_000,
  }, async () => {
    const LEASE_S = 3;
    const server = await startScriptedLlmServer({ script: [{ fault: 'hang' }, complete('resumed')] });
    servers.push(server);
    const workspace = tempDir('maestro-ws-');
    const [first] = await sharedHosts(['first'], server, workspace, LEASE_S);
    const created = await (first as HostProcess).call('POST', '/tasks', {
      instruction: 'outlive your host',
      title: 'outlive',
      workspacePath: workspace,
    });
    const taskId = created.json.task.id as string;
    await until('the model call to start', async () => (server.requests.length > 0 ? true : undefined), 20_000);
    (first as HostProcess).child.kill('SIGKILL');
    await (first as HostProcess).exited;
    const killedAt = Date.now();

    const [second, third] = await sharedHosts(['second', 'third'], server, workspace, LEASE_S);
    // An SSE client of `third` from now on.
    const sse = await fetch(`${(third as HostProcess).url}/api/local/events`, {
      headers: { authorization: `Bearer ${(third as HostProcess).token}`, accept: 'text/event-stream' },
    });
    const reader = (sse.body as ReadableStream<Uint8Array>).getReader();
    let seen = '';
    const sawSucceeded = (async () => {
      const decoder = new TextDecoder();
      while (!/"status":"succeeded"/.test(seen)) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += decoder.decode(value, { stream: true });
      }
    })();

    const job = await until(
      'the job to succeed on another host',
      async () => {
        const { rows } = await db.query<{ status: string; host: string; attempt: number; finished_at: number }>(
          'SELECT status, host, attempt, finished_at FROM jobs WHERE task_id = $1',
          [taskId],
        );
        return rows[0]?.status === 'succeeded' ? rows[0] : undefined;
      },
      60_000,
    );
    expect(job.host === 'second' || job.host === 'third').toBe(true);
    expect(job.attempt).toBe(2);
    expect(job.finished_at - killedAt).toBeLessThan(2 * LEASE_S * 1000 + 5_000);
    await sawSucceeded;
    await reader.cancel();
    expect(seen).toContain(taskId);
    // The person sees why: the interruption is named in the job's history.
    const activity = await (second as HostProcess).call('GET', `/tasks/${taskId}`);
    expect(activity.json.jobs[0]).toMatchObject({ status: 'succeeded' });
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
