// The headless host as another agent meets it: a real process (`node --import tsx src-main/headless.ts`), its model a
// scripted server, driven by the official A2A SDK's client made from the Agent Card the host serves. It discovers the
// host, completes a task, answers an ASK through input-required, streams one, cancels one, and is refused without the
// token or with a body that is not JSON-RPC.
import { TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { a2aClient, asTask, statusText, taskText, userMessage } from '../../test-support/a2a-kit';
import { arrival, complete } from '../../test-support/engine-harness';
import { startHostProcess } from '../../test-support/headless-process';
import { startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';

describe('the headless host over A2A', { timeout: 90_000 }, () => {
  it('P10.02 P1.10 P1.21 the SDK client discovers it, completes a task, answers an ASK, streams and cancels', async () => {
    const slow = arrival({ ...complete('too late'), delayMs: 30_000 });
    const llm = await startScriptedLlmServer({
      script: [
        complete('Two files.'),
        complete('Which branch?', 'needs_user_input'),
        complete('Merged main.'),
        { ...complete('Streamed.'), delayMs: 100 },
        slow.entry,
      ],
    });
    try {
      const host = await startHostProcess(tempDir(), tempDir('maestro-ws-'), {
        MAESTRO_LLM_BASE_URL: llm.baseURL,
        MAESTRO_LLM_API_KEY: 'sk-test',
        MAESTRO_LLM_MODEL: 'scripted',
      });
      const client = await a2aClient(host.url, host.token);
      const card = await client.getAgentCard();
      const { pieces } = (await host.call('GET', '/pieces')).json;
      expect(card.skills.map((s) => s.id)).toEqual(pieces.map((p: { id: string }) => p.id));
      expect(card.supportedInterfaces[0]?.url).toBe(`${host.url}/api/local/a2a`);

      // send, get
      const done = asTask(await client.sendMessage(userMessage('How many files?')));
      expect([done.status?.state, taskText(done)]).toEqual([TaskState.TASK_STATE_COMPLETED, 'Two files.']);
      expect((await client.getTask({ tenant: '', id: done.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const maestroTask = (await host.call('GET', `/tasks/${done.contextId}`)).json;
      expect(maestroTask.jobs.map((j: { status: string }) => j.status)).toEqual(['succeeded']);

      // ASK → input-required, answered by the next message
      const asked = asTask(await client.sendMessage(userMessage('Merge it')));
      expect([asked.status?.state, statusText(asked)]).toEqual([TaskState.TASK_STATE_INPUT_REQUIRED, 'Which branch?']);
      const merged = asTask(await client.sendMessage(userMessage('main', { taskId: asked.id })));
      expect([merged.id, merged.status?.state, taskText(merged)]).toEqual([
        asked.id,
        TaskState.TASK_STATE_COMPLETED,
        'Merged main.',
      ]);

      // stream
      const cases = [];
      for await (const { payload } of client.sendMessageStream(userMessage('Stream it'))) cases.push(payload?.$case);
      expect(cases).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);

      // cancel
      const started = asTask(
        await client.sendMessage(userMessage('Take your time', { configuration: { returnImmediately: true } })),
      );
      await slow.arrived;
      const cancelled = await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
      expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      const after = (await host.call('GET', `/tasks/${started.contextId}`)).json;
      expect(after.jobs[0].status).toBe('cancelled');

      // refused: no token; not JSON
      const rpc = (headers: Record<string, string>, body: string) =>
        fetch(`${host.url}/api/local/a2a`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
      expect((await rpc({}, '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}')).status).toBe(401);
      const garbled = await rpc({ authorization: `Bearer ${host.token}` }, '{not json');
      expect(await garbled.json()).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Invalid JSON payload.' },
      });

      host.child.kill('SIGTERM');
      expect(await host.exited).toEqual({ code: 0, signal: null });
      expect(host.output()).not.toContain(host.token);
      expect(host.output()).not.toMatch(/error|failed/i);
    } finally {
      await llm.close();
    }
  });
});
