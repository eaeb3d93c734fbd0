// The loop guards across a SIGKILL: the headless host, killed mid-job while the model is answering, and a new host on
// the same data dir that resumes the job. The revisit limit (P3.09) and the tool-loop guard (P4.13) count what the
// killed host's run did, so the resumed job stops at the limit instead of starting the count over. Each script ends
// with a reply that would let the job succeed had a guard forgotten its count.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type HostProcess, startHostProcess, stopHosts } from '../../test-support/headless-process';
import {
  type ScriptEntry,
  type ScriptedLlmServer,
  type ScriptedStep,
  startScriptedLlmServer,
} from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';

const step = (name: string, args: Record<string, unknown>): ScriptedStep => ({
  toolCalls: [{ name, arguments: args }],
});
const FORGOT = step('complete', { status: 'success', message: 'reached only if the guard forgot' });

const servers: ScriptedLlmServer[] = [];
const hosts: HostProcess[] = [];
afterEach(async () => {
  await stopHosts(hosts);
  for (const server of servers.splice(0)) await server.close();
});

/**
 * Runs a task whose script hangs at request `hangAt` (the job mid-answer), SIGKILLs the host there, starts a new one
 * on the same data dir, and returns the job as it ends there, with the requests the model server saw.
 */
async function killedMidJob(script: ScriptEntry[], hangAt: number, task: Record<string, unknown>) {
  const dataDir = tempDir();
  const workspace = tempDir('maestro-ws-');
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'notes\n');
  const server = await startScriptedLlmServer({
    script: [...script.slice(0, hangAt), { fault: 'hang' }, ...script.slice(hangAt)],
  });
  servers.push(server);
  const start = async () => {
    const host = await startHostProcess(dataDir, workspace, {
      MAESTRO_LLM_BASE_URL: server.baseURL,
      MAESTRO_LLM_API_KEY: 'sk-test',
      MAESTRO_LLM_MODEL: 'scripted',
    });
    hosts.push(host);
    return host;
  };
  const first = await start();
  const { task: created } = (await first.call('POST', '/tasks', task)).json;
  await expect.poll(() => server.requests.length, { timeout: 30_000 }).toBe(hangAt + 1);
  first.child.kill('SIGKILL');
  expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });

  const second = await start();
  const jobOf = async () => (await second.call('GET', `/tasks/${created.id}`)).json.jobs[0];
  await expect.poll(async () => (await jobOf()).status, { timeout: 60_000 }).toMatch(/^(failed|succeeded)$/);
  return { job: await jobOf(), requests: server.requests.length };
}

describe('loop guards across a SIGKILL and a restart (issue 24)', { timeout: 180_000 }, () => {
  it('P4.13 the same call, three times before the kill and twice after, is a tool loop', async () => {
    const same = step('read_file', { path: 'notes.txt' });
    const { job, requests } = await killedMidJob([same, same, same, same, same, FORGOT], 3, { instruction: 'Read' });
    expect(job).toMatchObject({ status: 'failed', errorCode: 'tool_loop', attempt: 2 });
    expect(job.error).toBe('tool loop: read_file was called 5 times with the same arguments');
    expect(requests).toBe(6);
  });

  it('P3.09 implement entered for the sixth time, two of them before the kill, passes its revisit limit of 4', async () => {
    const to = (next: string) => step('transition', { next });
    const loop = [to('implement'), to('review'), to('implement'), to('review')];
    const after = [to('implement'), to('review'), to('implement'), to('review'), to('implement'), to('review')];
    const { job, requests } = await killedMidJob([...loop, ...after, to('implement'), FORGOT], 4, {
      instruction: 'Build it',
      pieceId: 'plan-implement-review',
    });
    expect(job).toMatchObject({ status: 'failed', attempt: 2 });
    expect(job.error).toBe('movement loop: implement was revisited more than 4 times (revisit_limit)');
    expect(requests).toBe(12);
  });
});
