// Several real hosts on one PostgreSQL database (issue 25 point 3) share its jobs: each runs exactly once, only on a
// host that may run it; a same-name host leaves a live one's job alone; a SIGKILLed host's job resumes on another.

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostProcess, until } from '../../test-support/headless-process';
import { hasPg } from '../../test-support/pg-test-db';
import { startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { complete, servers, sharedDatabaseUrl, sharedHosts } from '../../test-support/shared-hosts-kit';
import { tempDir } from '../../test-support/temp-maestro';

let db: pg.Client;

afterAll(async () => {
  await db?.end();
});

describe.skipIf(!hasPg())('several hosts on one PostgreSQL database (real PostgreSQL 15, real host processes)', () => {
  beforeAll(async () => {
    db = new pg.Client({ connectionString: await sharedDatabaseUrl() });
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
});
