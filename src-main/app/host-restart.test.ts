// A host SIGKILLed mid-job, and the next host on the same data dir: the interrupted job goes on at once (the host lock
// proves its old host is gone, so no stale-heartbeat wait), and an approved command that was running when the host
// died is neither left running nor run again: the model hears that it was interrupted by a restart.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatStep } from '../../src-shared/entities';
import { type HostProcess, startHostProcess, stopHosts } from '../../test-support/headless-process';
import {
  type RecordedRequest,
  type ScriptedLlmServer,
  type ScriptedStep,
  startScriptedLlmServer,
} from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';

const RESUME_BUDGET_MS = 10_000;

type Msg = { role: string; content: string | null; tool_call_id?: string };
const messagesOf = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];
const complete = (message: string): ScriptedStep => ({
  toolCalls: [{ name: 'complete', arguments: { status: 'success', message } }],
});

const servers: ScriptedLlmServer[] = [];
const hosts: HostProcess[] = [];
afterEach(async () => {
  await stopHosts(hosts);
  for (const server of servers.splice(0)) await server.close();
});

async function llmServer(script: Parameters<typeof startScriptedLlmServer>[0]) {
  const server = await startScriptedLlmServer(script);
  servers.push(server);
  return server;
}

async function host(dataDir: string, workspace: string, server: ScriptedLlmServer): Promise<HostProcess> {
  const started = await startHostProcess(dataDir, workspace, {
    MAESTRO_LLM_BASE_URL: server.baseURL,
    MAESTRO_LLM_API_KEY: 'sk-test',
    MAESTRO_LLM_MODEL: 'scripted',
  });
  hosts.push(started);
  return started;
}

async function kill(h: HostProcess): Promise<number> {
  const at = Date.now();
  h.child.kill('SIGKILL');
  expect(await h.exited).toEqual({ code: null, signal: 'SIGKILL' });
  return at;
}

const jobOf = async (h: HostProcess, taskId: string) => (await h.call('GET', `/tasks/${taskId}`)).json.jobs[0];

describe('a host SIGKILLed mid-job, then a new host on the same data dir', { timeout: 240_000 }, () => {
  it('a second host on a data dir in use refuses to start, naming the holder; once the holder stopped it starts', async () => {
    const dataDir = tempDir();
    const workspace = tempDir('maestro-ws-');
    const first = await startHostProcess(dataDir, workspace);
    hosts.push(first);
    const bridge = fs.readFileSync(path.join(dataDir, 'bridge.json'), 'utf8');
    await expect(startHostProcess(dataDir, workspace)).rejects.toThrow(
      new RegExp(
        `MAESTRO could not start: the data dir .* is in use by another MAESTRO \\(pid ${first.child.pid}, started `,
      ),
    );
    // The refused host touched nothing of the running one's.
    expect(fs.readFileSync(path.join(dataDir, 'bridge.json'), 'utf8')).toBe(bridge);
    expect((await first.call('GET', '/health')).status).toBe(200);
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, 'host.lock'))).toBe(false);
    hosts.push(await startHostProcess(dataDir, workspace));
  });

  it('P2.35 the interrupted job is recovered at start and reaches its next LLM request within 10 s, not after the stale window', async () => {
    const dataDir = tempDir();
    const workspace = tempDir('maestro-ws-');
    // The first request hangs (the job is running, mid LLM call) until the host dies; the next one completes.
    const server = await llmServer({ script: [{ fault: 'hang' }, complete('resumed and done')] });
    const first = await host(dataDir, workspace, server);
    const { task } = (await first.call('POST', '/tasks', { instruction: 'take your time' })).json;
    await expect.poll(() => server.requests.length, { timeout: 20_000 }).toBe(1);
    expect((await jobOf(first, task.id)).status).toBe('running');
    const killedAt = await kill(first);

    const second = await host(dataDir, workspace, server);
    await expect.poll(() => server.requests.length, { timeout: 30_000 }).toBe(2);
    const resumedAt = (server.requests[1] as RecordedRequest).receivedAt;
    const sinceListening = resumedAt - second.listeningAt;
    const sinceKill = resumedAt - killedAt;
    console.log(
      `resume after SIGKILL: next LLM request ${Math.round(sinceListening)} ms after the new host listened, ` +
        `${Math.round(sinceKill)} ms after the kill (the new host's start included)`,
    );
    expect(sinceListening).toBeLessThan(RESUME_BUDGET_MS);
    expect(sinceKill).toBeLessThan(RESUME_BUDGET_MS);
    await expect.poll(async () => (await jobOf(second, task.id)).status, { timeout: 20_000 }).toBe('succeeded');
    const job = await jobOf(second, task.id);
    expect(job.attempt).toBe(2);
    // The same conversation went on: the resumed request starts with what the first one sent.
    const before = messagesOf(server.requests[0]);
    expect(messagesOf(server.requests[1]).slice(0, before.length)).toEqual(before);
  });

  it('P7.03 SIGKILL while an approved command runs: it never runs twice', async () => {
    const dataDir = tempDir();
    const workspace = tempDir('maestro-ws-');
    const ran = path.join(workspace, 'ran.txt');
    // Each round's task asks for one command; once the model hears back about it, it completes.
    const results = new Map<number, string>();
    const respond = (request: RecordedRequest): ScriptedStep => {
      const messages = messagesOf(request);
      const round = Number(/round (\d+)/.exec(JSON.stringify(messages))?.[1]);
      const last = messages.at(-1);
      if (last?.role === 'tool') {
        results.set(round, last.content ?? '');
        return complete(`round ${round} heard back`);
      }
      const command = `echo started >> started-${round}.txt; sleep 0.4; echo approval-${round} >> ran.txt; sleep 0.6`;
      return { toolCalls: [{ name: 'run_command', arguments: { command }, id: `call_r${round}` }] };
    };
    const server = await llmServer({ script: Array.from({ length: 40 }, () => respond) });
    const ROUNDS = 5;
    const moments: number[] = [];
    let current = await host(dataDir, workspace, server);
    for (let round = 1; round <= ROUNDS; round++) {
      const { task } = (await current.call('POST', '/tasks', { instruction: `Do round ${round}.` })).json;
      await expect.poll(async () => (await jobOf(current, task.id)).status, { timeout: 20_000 }).toBe('waiting_human');
      const [request] = (await current.call('GET', `/tasks/${task.id}/tool-requests`)).json.requests;
      expect(request).toMatchObject({ tool: 'run_command', status: 'pending' });
      const decided = await current.call('POST', `/tasks/${task.id}/tool-requests/${request.id}/decide`, {
        decision: 'approve',
      });
      expect(decided.status).toBe(200);

      // Killed at a random moment while the command runs: before its append (at 0.4 s) or after it.
      const started = path.join(workspace, `started-${round}.txt`);
      await expect.poll(() => fs.existsSync(started), { timeout: 20_000, interval: 5 }).toBe(true);
      const moment = Math.floor(Math.random() * 900);
      moments.push(moment);
      await sleep(moment);
      expect(results.has(round), `round ${round} had finished before the kill`).toBe(false);
      await kill(current);

      current = await host(dataDir, workspace, server);
      await expect.poll(async () => (await jobOf(current, task.id)).status, { timeout: 30_000 }).toBe('succeeded');
      // Long after the command would have ended, had it gone on or been run again.
      await sleep(1200);
      const lines = fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8').split('\n') : [];
      expect(lines.filter((l) => l === `approval-${round}`).length, `round ${round}`).toBeLessThanOrEqual(1);
      expect(fs.readFileSync(started, 'utf8'), `round ${round} started once`).toBe('started\n');
      expect(results.get(round)).toMatch(
        /^Error: the approved run_command call \(\$ echo started .*\) was interrupted by a restart of MAESTRO and did not finish; its effects are unknown/,
      );
      // The chat after the restart: the call made before the kill is one step, answered by the new host's run.
      const { steps } = (await current.call('GET', `/tasks/${task.id}/recent`)).json;
      const asked = steps.find((s: ChatStep) => s.toolCalls.some((c) => c.id === `call_r${round}`)) as ChatStep;
      expect(asked.toolCalls).toEqual([
        expect.objectContaining({ name: 'run_command', result: expect.objectContaining({ ok: false }) }),
      ]);
      expect(asked.toolCalls[0]?.result?.content).toMatch(/interrupted by a restart/);
    }
    console.log(
      `SIGKILLs at ${moments.join(', ')} ms into the command; ran.txt:`,
      fs.existsSync(ran) ? fs.readFileSync(ran, 'utf8').trim().split('\n') : [],
    );
  });
});
