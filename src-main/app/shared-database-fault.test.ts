// The shared PostgreSQL database of a host goes away while a job's model call is in flight, and comes back (issue 25,
// "Bad input and faults"): the host stays up, the bridge answers 503 database_unreachable with Retry-After and writes
// nothing, and once the database is back the job finishes with nothing acknowledged lost (the model's answer that came
// during the outage was not recorded, so the step is asked again, as after a locked SQLite file).
// A database that cannot be reached at start stops the host with the reason, the URL's password not in it.
import { afterEach, describe, expect, it } from 'vitest';
import { type HostProcess, startHostProcess, stopHosts, until } from '../../test-support/headless-process';
import { createPgDatabase, type PgCluster, pgMissing, startPgCluster } from '../../test-support/pg-cluster';
import { hasPg } from '../../test-support/pg-test-db';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';

const hosts: HostProcess[] = [];
const servers: ScriptedLlmServer[] = [];
const clusters: PgCluster[] = [];
afterEach(async () => {
  await stopHosts(hosts);
  for (const server of servers.splice(0)) await server.close();
  for (const cluster of clusters.splice(0)) await cluster.stop();
});

describe.skipIf(!hasPg() || pgMissing() !== undefined)('the shared database goes away and comes back', () => {
  it('the host stays up, answers 503 database_unreachable with Retry-After and writes nothing; the job goes back to retry without using an attempt and finishes once it is back', {
    timeout: 120_000,
  }, async () => {
    const cluster = await startPgCluster();
    clusters.push(cluster);
    const url = await createPgDatabase(cluster.url);
    const server = await startScriptedLlmServer({
      script: [
        { delayMs: 6_000, toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'ok' } }] },
        { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'ok' } }] },
      ],
    });
    servers.push(server);
    const workspace = tempDir('maestro-ws-');
    const host = await startHostProcess(tempDir(), workspace, {
      MAESTRO_LLM_BASE_URL: server.baseURL,
      MAESTRO_LLM_API_KEY: 'sk-test',
      MAESTRO_LLM_MODEL: 'scripted',
      MAESTRO_DATABASE_URL: url,
    });
    hosts.push(host);
    const created = await host.call('POST', '/tasks', {
      instruction: 'survive',
      title: 'survive',
      workspacePath: workspace,
    });
    expect(created.status).toBe(201);
    const taskId = created.json.task.id as string;
    const comment = await host.call('POST', `/tasks/${taskId}/comments`, { body: 'acknowledged before the outage' });
    expect(comment.status).toBe(201);
    await until('the model call to start', async () => (server.requests.length > 0 ? true : undefined), 20_000);

    await cluster.pause();
    const refused = await fetch(`${host.url}/api/local/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ instruction: 'during the outage', workspacePath: workspace }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('database_unreachable');
    const listed = await host.call('GET', `/tasks/${taskId}`);
    expect(listed.status).toBe(503);
    // The model's answer (6 s after the call began) comes while the database is away.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(host.child.exitCode).toBeNull();
    await cluster.resume();

    const job = await until(
      'the job to finish once the database is back',
      async () => {
        const got = await host.call('GET', `/tasks/${taskId}`);
        return got.status === 200 && got.json.jobs[0].status === 'succeeded' ? got.json : undefined;
      },
      60_000,
    ).catch(async (error: Error) => {
      const got = await host.call('GET', `/tasks/${taskId}`);
      throw new Error(`${error.message}\n${JSON.stringify(got.json.jobs)}\n${host.output()}`);
    });
    expect(job.comments.map((c: { body: string }) => c.body)).toContain('acknowledged before the outage');
    // Exactly the one task: the refused creation left nothing.
    const tasks = await host.call('GET', '/tasks');
    expect(tasks.json.tasks.map((t: { id: string }) => t.id)).toEqual([taskId]);
    // The answer that came while the database was away was never recorded (never acknowledged): asked again once,
    // and the outage used no attempt of the job's.
    expect(server.requests).toHaveLength(2);
    expect(job.jobs[0].attempt).toBe(1);
  });

  it('a database that cannot be reached at start: the host says so, names it without its password, exits non-zero', async () => {
    const started = startHostProcess(tempDir(), tempDir('maestro-ws-'), {
      MAESTRO_DATABASE_URL: 'postgres://maestro:hunter2@127.0.0.1:1/maestro',
    });
    const error = await started.then(
      () => null,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(
      /MAESTRO could not start: cannot open the MAESTRO database at postgres:\/\/maestro@127\.0\.0\.1:1\/maestro/,
    );
    expect(error?.message).not.toContain('hunter2');
  });
});
