// A2A tasks on the bridge, driven by the official SDK's clients over real HTTP against a Maestro whose model is
// scripted: message/send and /stream, tasks/get, tasks/cancel, a Continue, and the waits and failures a task shows.
import fs from 'node:fs';
import path from 'node:path';
import { ListTasksRequest, TaskState } from '@a2a-js/sdk';
import { describe, expect, it } from 'vitest';
import { a2aBridge, asTask, send03, statusText, taskText, userMessage } from '../../test-support/a2a-kit';
import { approvalTool, arrival, complete } from '../../test-support/engine-harness';
import { writeMcpConfig } from '../../test-support/mcp-fixtures';
import { startMcpHttpServer } from '../../test-support/mcp-http-server';
import { acceptWorkspaceSettings } from '../../test-support/temp-maestro';

describe('message/send and tasks/get', () => {
  it('P10.02 P9.04 a message becomes a MAESTRO task (Invoke PodEvent); the task completes with the result as its artifact', async () => {
    const a = await a2aBridge([complete('Two files.')]);
    const sent = userMessage('How many files are there?');
    const task = asTask(await a.client.sendMessage(sent));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskText(task)).toBe('Two files.');
    expect(task.artifacts[0]?.parts[0]?.mediaType).toBe('text/markdown');

    const maestroTaskId = task.metadata?.maestroTaskId as string;
    expect(task.contextId).toBe(maestroTaskId);
    const { task: created, jobs, comments } = a.h.maestro.invoke('getTask', { taskId: maestroTaskId });
    expect(created.instruction).toBe('How many files are there?');
    expect(jobs.map((j) => j.status)).toEqual(['succeeded']);
    expect(comments[0]).toMatchObject({ kind: 'instruction', author: 'agent' });
    const invokes = a.h.maestro.store.logEntries.listForTask(maestroTaskId).filter((e) => e.kind === 'Invoke');
    expect(invokes.map((e) => e.invokeKind)).toEqual(['PodEvent']);

    // The history gives the caller's message back under its own id, then the result.
    const got = await a.client.getTask({ tenant: '', id: task.id });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(got.history.map((m) => [m.role, m.messageId === sent.message?.messageId])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(taskText(got)).toBe('Two files.');
    expect((await a.client.getTask({ tenant: '', id: task.id, historyLength: 0 })).history).toEqual([]);

    // Deleting the MAESTRO task takes its A2A task with it.
    a.h.maestro.invoke('deleteTask', { taskId: maestroTaskId });
    const gone = await a.rpc({ jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { id: task.id } });
    expect(gone.json.error).toMatchObject({ code: -32001 });
  });

  it('P10.02 message/stream sends the task, then status-updates from the event bus and the result as an artifact-update', async () => {
    const a = await a2aBridge([{ ...complete('Streamed.'), delayMs: 150 }]);
    const events = [];
    for await (const event of a.client.sendMessageStream(userMessage('Stream it'))) events.push(event.payload);
    expect(events.map((e) => e?.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
    const states = events.map((e) =>
      e?.$case === 'task' || e?.$case === 'statusUpdate' ? e.value.status?.state : e?.$case,
    );
    expect(states).toEqual([
      TaskState.TASK_STATE_SUBMITTED,
      TaskState.TASK_STATE_WORKING,
      'artifactUpdate',
      TaskState.TASK_STATE_COMPLETED,
    ]);
    const artifact = events[2];
    expect(artifact?.$case === 'artifactUpdate' && artifact.value.artifact?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 'Streamed.',
    });
  });

  it('P10.02 a caller resubscribes to a running task and follows it to its end; ListTasks lists a context', async () => {
    const slow = arrival({ ...complete('Later.'), delayMs: 300 });
    const a = await a2aBridge([slow.entry]);
    const started = asTask(
      await a.client.sendMessage(userMessage('Go', { configuration: { returnImmediately: true } })),
    );
    await slow.arrived;
    const cases = [];
    for await (const { payload } of a.client.resubscribeTask({ tenant: '', id: started.id })) {
      cases.push(payload?.$case === 'statusUpdate' ? payload.value.status?.state : payload?.$case);
    }
    expect(cases[0]).toBe('task');
    expect(cases.slice(-2)).toEqual(['artifactUpdate', TaskState.TASK_STATE_COMPLETED]);
    const listed = await a.client.listTasks(
      ListTasksRequest.fromJSON({ contextId: started.contextId, includeArtifacts: true }),
    );
    expect(listed.tasks.map((t) => [t.id, taskText(t)])).toEqual([[started.id, 'Later.']]);
    expect(listed.totalSize).toBe(1);
  });

  it('P10.02 P1.10 an ASK is input-required with the question; the next message answers it and the task completes', async () => {
    const a = await a2aBridge([complete('Which branch?', 'needs_user_input'), complete('Merged main.')]);
    const asked = asTask(await a.client.sendMessage(userMessage('Merge it')));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(asked)).toBe('Which branch?');

    const answer = userMessage('main', { taskId: asked.id, contextId: asked.contextId });
    const done = asTask(await a.client.sendMessage(answer));
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskText(done)).toBe('Merged main.');
    // The model got the answer in the follow-up job (a comment of kind answer).
    const comments = a.h.maestro.invoke('getTask', { taskId: asked.contextId }).comments;
    expect(comments.map((c) => c.kind)).toEqual(['instruction', 'question', 'answer', 'result']);
    expect(JSON.stringify(a.h.server.requests[1]?.body?.messages)).toContain('main');
    const got = await a.client.getTask({ tenant: '', id: asked.id });
    expect(got.history.map((m) => m.messageId).slice(2, 3)).toEqual([answer.message?.messageId]);
  });

  it('P1.16 a message to the context of a finished task continues the MAESTRO task as a new A2A task', async () => {
    const a = await a2aBridge([complete('First.'), complete('Second.')]);
    const first = asTask(await a.client.sendMessage(userMessage('One')));
    const again = await a.rpc(send03('More', { taskId: first.id }));
    expect(again.json.error).toMatchObject({ code: -32004 });
    expect(again.json.error.message).toContain(`contextId ${first.contextId}`);

    const second = asTask(await a.client.sendMessage(userMessage('Two', { contextId: first.contextId })));
    expect(second.id).not.toBe(first.id);
    expect(second.contextId).toBe(first.contextId);
    expect(taskText(second)).toBe('Second.');
    const jobs = a.h.maestro.invoke('getTask', { taskId: first.contextId }).jobs;
    expect(jobs).toHaveLength(2);
    expect(jobs[1]?.continuedFromJobId).toBe(jobs[0]?.id);
    // The first task is as it was.
    expect(taskText(await a.client.getTask({ tenant: '', id: first.id }))).toBe('First.');
  });
});

describe('tasks/cancel', () => {
  it('P1.21 P10.02 cancels the running job; cancelling again answers the cancelled task; a finished task is not cancelable', async () => {
    const slow = arrival({ ...complete('too late'), delayMs: 10_000 });
    const a = await a2aBridge([slow.entry, complete('Quick.')]);
    const started = asTask(
      await a.client.sendMessage(userMessage('Take your time', { configuration: { returnImmediately: true } })),
    );
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(started.status?.state);
    await slow.arrived;
    const cancelled = await a.client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const job = a.h.maestro.invoke('getTask', { taskId: started.contextId }).jobs[0];
    expect(job?.status).toBe('cancelled');
    expect((await a.client.getTask({ tenant: '', id: started.id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await a.client.cancelTask({ tenant: '', id: started.id, metadata: undefined })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );

    const quick = asTask(await a.client.sendMessage(userMessage('Quick')));
    const refused = await a.rpc({ jsonrpc: '2.0', id: 1, method: 'tasks/cancel', params: { id: quick.id } });
    expect(refused.json.error).toMatchObject({ code: -32002 });
  });
});

describe('waits a person resolves in MAESTRO', () => {
  it('P2.23 P1.07 P7.03 a tool request is input-required naming the call; a message meanwhile is refused; the approval lets it finish', async () => {
    const a = await a2aBridge(
      [{ toolCalls: [{ name: 'run_command', arguments: { command: 'ls' } }] }, complete('Listed.')],
      { tools: [approvalTool()] },
    );
    const waiting = asTask(await a.client.sendMessage(userMessage('List the files')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(waiting)).toContain('Run `ls`');
    const meanwhile = await a.rpc(send03('hurry', { taskId: waiting.id }));
    expect(meanwhile.json.error).toMatchObject({ code: -32004 });
    expect(meanwhile.json.error.message).toMatch(/approve or deny it first/);

    const taskId = waiting.contextId;
    const [request] = a.h.maestro.invoke('listToolRequests', { taskId }).requests;
    a.h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    const job = a.h.maestro.invoke('getTask', { taskId }).jobs[0] as { id: string };
    await a.h.waitFor(job.id, ['succeeded']);
    const done = await a.client.getTask({ tenant: '', id: waiting.id });
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskText(done)).toBe('Listed.');
  });

  it('P2.14 P2.16 a missing MCP token is auth-required; the stream goes on once the token is saved, to completed', async () => {
    const mcp = await startMcpHttpServer({ token: 'tok-1' });
    try {
      const a = await a2aBridge([complete('Used the server.')]);
      writeMcpConfig(a.h.workspace, { remote: { url: mcp.url, auth: { required: true } } });
      acceptWorkspaceSettings(a.h.maestro, a.h.workspace);
      const states: (TaskState | undefined)[] = [];
      let authText = '';
      for await (const { payload } of a.client.sendMessageStream(userMessage('Use the remote tools'))) {
        if (payload?.$case !== 'statusUpdate') continue;
        states.push(payload.value.status?.state);
        if (payload.value.status?.state === TaskState.TASK_STATE_AUTH_REQUIRED) {
          authText = statusText(payload.value);
          a.h.maestro.invoke('saveMcpToken', { workspacePath: a.h.workspace, server: 'remote', token: 'tok-1' });
        }
      }
      expect(authText).toContain('The MCP server "remote" needs a token');
      expect(authText).not.toContain('tok-1');
      expect(states).toContain(TaskState.TASK_STATE_AUTH_REQUIRED);
      expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(mcp.authorizations).toContain('Bearer tok-1');
    } finally {
      await mcp.close();
    }
  });

  it('P10.02 settings files of a new folder are input-required, the status message naming them; decided in the app, the task completes', async () => {
    const a = await a2aBridge([complete('Ran with the policy.')], { acceptSettings: false });
    fs.mkdirSync(path.join(a.h.workspace, '.maestro'));
    fs.writeFileSync(path.join(a.h.workspace, '.maestro', 'policy.json'), '{}\n');
    const waiting = asTask(await a.client.sendMessage(userMessage('Work in the folder')));
    expect(waiting.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(waiting)).toContain('wait to be reviewed');
    expect(statusText(waiting)).toContain('.maestro/policy.json');
    expect(a.h.server.requests).toHaveLength(0);

    acceptWorkspaceSettings(a.h.maestro, a.h.workspace);
    a.h.maestro.invoke('listSettingsChanges', { workspacePath: a.h.workspace });
    const jobId = a.h.maestro.store.jobs.latestForTask(waiting.contextId)?.id as string;
    await a.h.waitFor(jobId, ['succeeded']);
    const done = await a.client.getTask({ tenant: '', id: waiting.id });
    expect([done.status?.state, taskText(done)]).toEqual([TaskState.TASK_STATE_COMPLETED, 'Ran with the policy.']);
  });

  it('P1.10 an ASK answered in the app (not over A2A): the A2A task goes on with the answer job', async () => {
    const a = await a2aBridge([complete('Which file?', 'needs_user_input'), complete('Read a.txt.')]);
    const asked = asTask(await a.client.sendMessage(userMessage('Read it')));
    const { job } = a.h.maestro.invoke('addComment', { taskId: asked.contextId, body: 'a.txt' });
    await a.h.waitFor(job?.id as string, ['succeeded']);
    const done = await a.client.getTask({ tenant: '', id: asked.id });
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskText(done)).toBe('Read a.txt.');
  });

  it('P2.30 a job that fails is a failed task with its error as the status message', async () => {
    const a = await a2aBridge([complete('I cannot do that.', 'failure')]);
    const task = asTask(await a.client.sendMessage(userMessage('Do the impossible')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(statusText(task)).toContain('I cannot do that.');
  });
});
