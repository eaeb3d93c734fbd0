// a2a_send in real jobs: Worker + engine + the scripted model, and remote agents made with the official A2A SDK on
// 127.0.0.1. The agents come from the workspace's agents.json in the accepted version; a call asks a person unless the
// policy allows it; the saved token reaches only the agent's own origin and never a prompt, an event or the DB.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RemoteTurn, remoteAgent, scriptedAgent } from '../../test-support/a2a-kit';
import { call, complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';

const TOKEN = 'agent-SECRET-token-0123456789';

function writeSettings(workspace: string, file: string, value: unknown): void {
  fs.mkdirSync(path.join(workspace, '.maestro'), { recursive: true });
  fs.writeFileSync(path.join(workspace, '.maestro', file), JSON.stringify(value, null, 2));
}

type Tool = { function: { name: string; description: string; parameters: { properties: Record<string, unknown> } } };
const toolsOf = (h: Harness, i: number) => (h.server.requests[i]?.body?.tools ?? []) as Tool[];
const toolResults = (request: RecordedRequest | undefined) =>
  ((request?.body?.messages ?? []) as { role: string; content?: string }[])
    .filter((m) => m.role === 'tool')
    .map((m) => m.content ?? '');

/** Everything of the data dir but the sealed tokens and the key they are sealed with, as text. */
function dataDirText(dataDir: string): string {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!['agent-tokens.json', 'secret.key', 'host.lock'].includes(entry.name)) files.push(full);
    }
  };
  walk(dataDir);
  return files.map((f) => fs.readFileSync(f).toString('latin1')).join('\n');
}

async function helperWorkspace(
  turn: (message: string, taskId: string) => RemoteTurn | Promise<RemoteTurn>,
  auth?: object,
  extra: object = {},
) {
  const remote = await remoteAgent(scriptedAgent(turn), { token: TOKEN });
  const workspace = tempDir('maestro-ws-');
  writeSettings(workspace, 'agents.json', {
    agents: {
      helper: { url: remote.url, description: 'Answers sums', ...(auth ? { auth } : { auth: {} }), ...extra },
    },
  });
  return { remote, workspace };
}

describe('a2a_send', () => {
  it('P2.18 P2.23 P7.03 P10.11 asks a person first; approved, it reaches the remote agent with the saved token, and the answer reaches the model', async () => {
    const { remote, workspace } = await helperWorkspace(() => ({ result: 'The answer is 4.' }));
    const h = await engineHarness(
      [call('a2a_send', { agent: 'helper', message: 'What is 2+2?' }), complete('The helper says 4.')],
      { policyTools: true, workspace },
    );
    acceptWorkspaceSettings(h.maestro, workspace);
    const saved = h.maestro.invoke('saveRemoteAgentToken', { workspacePath: workspace, agent: 'helper', token: TOKEN });
    expect(saved.agent).toMatchObject({ name: 'helper', token: 'saved' });
    expect(JSON.stringify(saved)).not.toContain(TOKEN);

    const { taskId, jobId } = h.createTask('Ask the helper');
    const parked = await h.waitFor(jobId, SETTLED);
    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    expect(remote.requests).toEqual([]);
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(request?.tool).toBe('a2a_send');
    expect(request?.summary).toBe(`Send to the remote agent helper at ${remote.url}:\n\nWhat is 2+2?`);

    const spec = toolsOf(h, 0).find((t) => t.function.name === 'a2a_send');
    expect(spec?.function.description).toContain('- helper: Answers sums');
    expect(spec?.function.parameters.properties.agent).toMatchObject({ enum: ['helper'] });

    h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    const done = await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(done).toMatchObject({ status: 'succeeded', result: 'The helper says 4.' });

    const rpc = remote.requests.filter((r) => r.body.method === 'SendMessage');
    expect(rpc).toHaveLength(1);
    expect(rpc[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.stringify(rpc[0]?.body.params)).toContain('What is 2+2?');
    const [result] = toolResults(h.server.requests.at(-1));
    expect(result).toContain('is completed.');
    expect(result).toContain('The answer is 4.');

    // The token is in no prompt, event, log line or file of the data dir but its sealed store.
    expect(h.server.requests.map((r) => r.rawBody).join('\n')).not.toContain(TOKEN);
    expect(JSON.stringify(h.events)).not.toContain(TOKEN);
    expect(dataDirText(h.dataDir)).not.toContain(TOKEN);
    expect(fs.readFileSync(path.join(h.dataDir, 'agent-tokens.json'), 'utf8')).not.toContain(TOKEN);
  });

  it('P2.18 runs without asking when the policy allows it; a question is answered by the next call naming its task_id', async () => {
    const { remote, workspace } = await helperWorkspace((message) =>
      message === 'km' ? { result: '10 miles is 16.09 km.' } : { ask: 'Which unit?' },
    );
    writeSettings(workspace, 'policy.json', { tools: { allow: ['a2a_send'] } });
    const taskIdIn = (r: RecordedRequest) => /task_id "([^"]+)"/.exec(toolResults(r).join('\n'))?.[1] ?? 'missing';
    const h = await engineHarness(
      [
        call('a2a_send', { agent: 'helper', message: 'Convert 10 miles' }),
        (r) => call('a2a_send', { agent: 'helper', message: 'km', task_id: taskIdIn(r) }),
        complete('16.09 km'),
      ],
      { policyTools: true, workspace },
    );
    acceptWorkspaceSettings(h.maestro, workspace);
    h.maestro.invoke('saveRemoteAgentToken', { workspacePath: workspace, agent: 'helper', token: TOKEN });
    const { taskId, jobId } = h.createTask('Convert');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded' });
    expect(h.maestro.invoke('listToolRequests', { taskId }).requests).toEqual([]);

    const [first, second] = remote.requests.filter((r) => r.body.method === 'SendMessage');
    const asked = toolResults(h.server.requests[1])[0];
    expect(asked).toContain('is input-required. It asks:\nWhich unit?');
    const remoteTaskId = taskIdIn(h.server.requests[1] as RecordedRequest);
    const sentTaskId = (r: typeof first) => (r?.body.params as { message?: { taskId?: string } })?.message?.taskId;
    expect(sentTaskId(second)).toBe(remoteTaskId);
    expect(sentTaskId(first)).toBeUndefined();
    expect(toolResults(h.server.requests[2]).at(-1)).toContain('10 miles is 16.09 km.');
  });

  it('P2.18 a remote task outlasting the timeout is not lost: a2a_send names its id, a2a_wait returns its result', async () => {
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const { remote, workspace } = await helperWorkspace(
      async () => {
        await finished;
        return { result: 'The long answer is 42.' };
      },
      undefined,
      { timeout_seconds: 1 },
    );
    writeSettings(workspace, 'policy.json', { tools: { allow: ['a2a_send'] } });
    const taskIdIn = (r: RecordedRequest) => /task_id "([^"]+)"/.exec(toolResults(r).join('\n'))?.[1] ?? 'missing';
    const h = await engineHarness(
      [
        call('a2a_send', { agent: 'helper', message: 'Think long' }),
        (r) => {
          // The first wait is bounded by its own timeout and answers "still running" with the id again.
          return call('a2a_wait', { agent: 'helper', task_id: taskIdIn(r), timeout_seconds: 1 });
        },
        (r) => {
          finish();
          return call('a2a_wait', { agent: 'helper', task_id: taskIdIn(r), timeout_seconds: 60 });
        },
        complete('42'),
      ],
      { policyTools: true, workspace },
    );
    acceptWorkspaceSettings(h.maestro, workspace);
    h.maestro.invoke('saveRemoteAgentToken', { workspacePath: workspace, agent: 'helper', token: TOKEN });
    const { taskId, jobId } = h.createTask('Ask for something long');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: '42' });
    // a2a_wait asks no one: it sends nothing of the job but the id of a task a send already took there.
    expect(h.maestro.invoke('listToolRequests', { taskId }).requests).toEqual([]);

    const sent = toolResults(h.server.requests[1]).at(-1) as string;
    expect(sent).toMatch(/is (submitted|working)\./);
    expect(sent).toContain('still running after 1 s');
    const remoteTaskId = taskIdIn(h.server.requests[1] as RecordedRequest);
    expect(remoteTaskId).not.toBe('missing');
    expect(toolResults(h.server.requests[2]).at(-1)).toContain(`task_id "${remoteTaskId}"`);
    expect(toolResults(h.server.requests[2]).at(-1)).toContain('still running after 1 s');
    const waited = toolResults(h.server.requests[3]).at(-1) as string;
    expect(waited).toContain(`task ${remoteTaskId}`);
    expect(waited).toContain('is completed');
    expect(waited).toContain('The long answer is 42.');
    // One message sent; the waits only asked for the task, with the saved token.
    expect(remote.requests.filter((r) => r.body.method === 'SendMessage')).toHaveLength(1);
    const gets = remote.requests.filter((r) => r.body.method === 'GetTask');
    expect(gets.length).toBeGreaterThan(1);
    expect(gets.every((g) => g.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
    // Spec 3.4: the pair is in every request's tools, the same bytes each time.
    const names = toolsOf(h, 0).map((t) => t.function.name);
    expect(names.indexOf('a2a_wait') - names.indexOf('a2a_send')).toBe(1);
    const first = JSON.stringify(toolsOf(h, 0));
    for (let i = 1; i < 4; i++) expect(JSON.stringify(toolsOf(h, i))).toBe(first);
  });

  it('P10.11 the token goes only to the agent’s own origin, not to an endpoint its card names elsewhere', async () => {
    const elsewhere = await remoteAgent(scriptedAgent(() => ({ result: 'from elsewhere' })));
    const remote = await remoteAgent(
      scriptedAgent(() => ({ result: 'unused' })),
      { cardUrl: `${elsewhere.url}/rpc` },
    );
    const workspace = tempDir('maestro-ws-');
    writeSettings(workspace, 'agents.json', { agents: { helper: { url: remote.url, auth: {} } } });
    writeSettings(workspace, 'policy.json', { tools: { allow: ['a2a_send'] } });
    const h = await engineHarness([call('a2a_send', { agent: 'helper', message: 'hi' }), complete('ok')], {
      policyTools: true,
      workspace,
    });
    acceptWorkspaceSettings(h.maestro, workspace);
    h.maestro.invoke('saveRemoteAgentToken', { workspacePath: workspace, agent: 'helper', token: TOKEN });
    const { jobId } = h.createTask('Say hi');
    await h.waitFor(jobId, SETTLED);
    expect(remote.cardFetches[0]?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(elsewhere.requests.length).toBeGreaterThanOrEqual(1);
    expect(elsewhere.requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    expect(toolResults(h.server.requests[1])[0]).toContain('from elsewhere');
  });

  it('a missing required token, a refused one and an unreachable agent are Error results naming the agent', async () => {
    const { remote, workspace } = await helperWorkspace(() => ({ result: 'never' }));
    writeSettings(workspace, 'policy.json', { tools: { allow: ['a2a_send'] } });
    const h = await engineHarness(
      [call('a2a_send', { agent: 'helper', message: 'no token yet' }), complete('gave up')],
      { policyTools: true, workspace },
    );
    await h.waitFor(h.createTask('Try').jobId, SETTLED);
    expect(toolResults(h.server.requests[1])[0]).toMatch(
      /^Error: the remote agent helper needs a token and none is saved/,
    );
    expect(remote.requests).toEqual([]);

    h.server.push(call('a2a_send', { agent: 'helper', message: 'wrong token' }), complete('refused'));
    h.maestro.invoke('saveRemoteAgentToken', { workspacePath: workspace, agent: 'helper', token: 'wrong-token' });
    await h.waitFor(h.createTask('Try again').jobId, SETTLED);
    expect(toolResults(h.server.requests[3])[0]).toBe(
      `Error: the remote agent helper (${remote.url}) refused the call (401/403): the saved token was not accepted; ` +
        'a person saves one in MAESTRO',
    );
    expect(h.maestro.invoke('listRemoteAgents', { workspacePath: workspace }).agents[0]?.token).toBe('rejected');

    const down = tempDir('maestro-ws-');
    writeSettings(down, 'agents.json', { agents: { gone: { url: 'http://127.0.0.1:9' } } });
    writeSettings(down, 'policy.json', { tools: { allow: ['a2a_send'] } });
    h.server.push(call('a2a_send', { agent: 'gone', message: 'hello?' }), complete('down'));
    await h.waitFor(h.createTask('Reach it', { workspacePath: down }).jobId, SETTLED);
    expect(toolResults(h.server.requests[5])[0]).toMatch(
      /^Error: the remote agent gone \(http:\/\/127\.0\.0\.1:9\) could not be reached/,
    );
  });

  it('P2.18 an agents.json not accepted gives no a2a_send; a broken accepted one fails the job naming the file and field', async () => {
    const workspace = tempDir('maestro-ws-');
    // Accepted without agents, then given one behind the app's back (a file never accepted holds the job instead).
    writeSettings(workspace, 'agents.json', { agents: {} });
    const h = await engineHarness([complete('no agents')], { policyTools: true, workspace, acceptSettings: false });
    acceptWorkspaceSettings(h.maestro, workspace);
    writeSettings(workspace, 'agents.json', { agents: { helper: { url: 'http://127.0.0.1:9' } } });
    const { jobId } = h.createTask('Anything');
    await h.waitFor(jobId, SETTLED);
    expect(toolsOf(h, 0).map((t) => t.function.name)).not.toContain('a2a_send');
    expect(h.maestro.invoke('listSettingsChanges', { workspacePath: workspace }).changes).toMatchObject([
      { file: '.maestro/agents.json', kind: 'agents', hasAccepted: true },
    ]);

    writeSettings(workspace, 'agents.json', { agents: { helper: { url: 'ftp://example.com' } } });
    acceptWorkspaceSettings(h.maestro, workspace);
    const broken = h.createTask('Again').jobId;
    const failed = await h.waitFor(broken, SETTLED);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain(path.join(fs.realpathSync(workspace), '.maestro', 'agents.json'));
    expect(failed.error).toContain('agents.helper.url: must be an http:// or https:// URL');
  });
});

describe('the remote agents of a workspace (listRemoteAgents, saveRemoteAgentToken)', () => {
  it('lists each agent with its token status, never a token; a token only for an agent that takes one', async () => {
    const workspace = tempDir('maestro-ws-');
    writeSettings(workspace, 'agents.json', {
      agents: {
        open: { url: 'http://127.0.0.1:9', description: 'No auth' },
        closed: { url: 'https://agent.example/a2a', auth: {} },
      },
    });
    const h = await engineHarness([], { workspace });
    expect(h.maestro.invoke('listRemoteAgents', { workspacePath: workspace }).agents).toEqual([]);
    acceptWorkspaceSettings(h.maestro, workspace);
    expect(h.maestro.invoke('listRemoteAgents', { workspacePath: workspace })).toEqual({
      agents: [
        {
          name: 'closed',
          url: 'https://agent.example/a2a',
          description: '',
          takesToken: true,
          tokenRequired: true,
          token: 'missing',
        },
        {
          name: 'open',
          url: 'http://127.0.0.1:9',
          description: 'No auth',
          takesToken: false,
          tokenRequired: false,
          token: 'none',
        },
      ],
      error: null,
    });
    const save = (agent: string) =>
      h.maestro.invoke('saveRemoteAgentToken', { workspacePath: workspace, agent, token: TOKEN });
    expect(() => save('open')).toThrow(/open has no auth in .*agents\.json: it takes no token/);
    expect(() => save('nobody')).toThrow(/no remote agent named nobody/);
    expect(save('closed').agent.token).toBe('saved');
    expect(JSON.stringify(h.maestro.invoke('listRemoteAgents', { workspacePath: workspace }))).not.toContain(TOKEN);

    writeSettings(workspace, 'agents.json', { agents: { 'bad name!': { url: 'http://x' } } });
    acceptWorkspaceSettings(h.maestro, workspace);
    expect(h.maestro.invoke('listRemoteAgents', { workspacePath: workspace }).error).toMatch(
      /agents\.json: agents\.bad name!: the name must be/,
    );
  });
});
