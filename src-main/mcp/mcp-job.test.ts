// MCP servers in real jobs: Worker + engine + real SQLite + the scripted LLM server, with the stdio test server as a
// child process and the streamable HTTP one on 127.0.0.1. The token check parks a job before any LLM call (P2.14),
// tokens let it run and reach the server (P2.15), saving one resumes the parked jobs (P2.16), a comment while
// parked is an interjection (P1.13), and no server process outlives its job.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, complete, engineHarness, type Harness, SETTLED } from '../../test-support/engine-harness';
import { isAlive, startedPids, stdioServerEntry, waitForExit, writeMcpConfig } from '../../test-support/mcp-fixtures';
import { type McpHttpServer, startMcpHttpServer } from '../../test-support/mcp-http-server';
import { TEST_MCP_TOOLS } from '../../test-support/mcp-test-tools';
import { startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';
import { startBridge } from '../bridge/server';
import { MCP_NETWORK_NOTE } from './mcp-tools';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function httpServer(token?: string): Promise<McpHttpServer> {
  const server = await startMcpHttpServer(token === undefined ? {} : { token });
  closers.push(() => server.close());
  return server;
}

type ChatMessage = { role: string; content?: string | null; tool_calls?: { function: { name: string } }[] };
const messagesOf = (h: Harness, i: number) => (h.server.requests[i]?.body?.messages ?? []) as ChatMessage[];
const toolResults = (h: Harness, i: number) =>
  messagesOf(h, i)
    .filter((m) => m.role === 'tool')
    .map((m) => m.content);
const toolSpecs = (h: Harness, i: number) =>
  (h.server.requests[i]?.body?.tools ?? []) as {
    function: { name: string; description: string; parameters: unknown };
  }[];

/** A server no job (or check) has started in this run of the app: on, nothing known yet. */
const notStarted = {
  signedIn: false,
  signingIn: false,
  enabled: true,
  status: 'unknown',
  tools: [],
  lastError: null,
  checkedAt: null,
};

const saveToken = (h: Harness, server: string, token: string) =>
  h.maestro.invoke('saveMcpToken', { workspacePath: h.workspace, server, token });

describe('MCP servers in a job', () => {
  it('P2.14 a missing required token parks the job before any LLM call or server start, with a notice naming the server', async () => {
    const workspace = tempDir('maestro-ws-');
    const remote = await httpServer('tok-1');
    const pidFile = path.join(workspace, 'pids');
    writeMcpConfig(workspace, {
      local: stdioServerEntry(pidFile),
      remote: { url: remote.url, auth: { required: true } },
    });
    const h = await engineHarness([complete('never played')], { workspace });
    const notices: string[] = [];
    h.maestro.attention.onChange((n) => n && notices.push(`${n.kind}: ${n.title} — ${n.body}`));

    const { taskId, jobId } = h.createTask('Use the remote tools');
    const parked = await h.waitFor(jobId, SETTLED);

    expect(parked).toMatchObject({ status: 'waiting_human', waitReason: 'mcp_auth_required', resumeMovement: 'work' });
    expect(h.server.requests).toHaveLength(0);
    expect(startedPids(pidFile)).toEqual([]);
    expect(remote.authorizations).toEqual([]);
    // Parked before the engine ran: the Invoke opens when the job really starts.
    expect(h.maestro.store.jobs.get(jobId)?.pendingInvoke).toBe('UserSend');
    const changed = h.events.filter((e) => e.type === 'job.changed' && e.jobId === jobId);
    expect(changed.at(-1)).toMatchObject({ job: { status: 'waiting_human', waitReason: 'mcp_auth_required' } });
    const comment = h.maestro.store.comments.listForJob(jobId).at(-1);
    expect(comment).toMatchObject({
      author: 'system',
      kind: 'comment',
      notice: { code: 'mcp_auth', server: 'remote' },
    });
    expect(comment?.body).toContain('The MCP server "remote" needs a token');
    expect(h.maestro.attention.list()).toMatchObject([
      { taskId, reason: 'mcp_auth_required', detail: expect.stringContaining('"remote"') },
    ]);
    expect(notices.at(-1)).toMatch(/^mcp_auth_required: Use the remote tools needs an authorization — .*"remote"/);
    expect(h.maestro.invoke('listMcpServers', { workspacePath: workspace })).toEqual({
      servers: [
        { name: 'local', transport: 'stdio', authRequired: false, takesToken: false, token: 'none', ...notStarted },
        { name: 'remote', transport: 'http', authRequired: true, takesToken: true, token: 'missing', ...notStarted },
      ],
      error: null,
    });
  });

  it('P2.15 P2.16 saving the token queues the parked job; it resumes in its movement, calls the tool, the token reaches the server', async () => {
    const workspace = tempDir('maestro-ws-');
    const remote = await httpServer('tok-2');
    writeMcpConfig(workspace, { remote: { url: remote.url, auth: { required: true } } });
    const h = await engineHarness(
      [call('mcp__remote__echo', { text: 'hello' }), call('mcp__remote__whoami', {}), complete('Echoed.')],
      { workspace },
    );
    const { jobId } = h.createTask('Echo hello');
    await h.waitFor(jobId, ['waiting_human']);

    const saved = saveToken(h, 'remote', 'tok-2');
    expect(saved.server).toEqual({
      name: 'remote',
      transport: 'http',
      authRequired: true,
      takesToken: true,
      token: 'saved',
      ...notStarted,
    });
    expect(saved.resumed).toMatchObject([{ id: jobId, status: 'queued', waitReason: null }]);
    expect(JSON.stringify(saved)).not.toContain('tok-2');
    const done = await h.waitFor(jobId, ['succeeded', 'failed']);

    expect(done).toMatchObject({ status: 'succeeded', result: 'Echoed.' });
    expect(h.server.requests).toHaveLength(3);
    expect(remote.authorizations.length).toBeGreaterThan(0);
    expect(new Set(remote.authorizations)).toEqual(new Set(['Bearer tok-2']));
    expect(toolResults(h, 1)).toEqual(['echo: hello']);
    // The server echoed the token back; the model got it redacted.
    expect(toolResults(h, 2)).toEqual(['echo: hello', 'credential: Bearer [token]']);
    // The server's tools come last, sorted, with their schemas and descriptions as listed; `tools` never changes.
    const specs = toolSpecs(h, 0);
    const mcp = specs.filter((s) => s.function.name.startsWith('mcp__'));
    expect(mcp.map((s) => s.function.name)).toEqual(TEST_MCP_TOOLS.map((t) => `mcp__remote__${t.name}`).sort());
    for (const t of TEST_MCP_TOOLS) {
      expect(mcp.find((s) => s.function.name === `mcp__remote__${t.name}`)?.function).toEqual({
        name: `mcp__remote__${t.name}`,
        description: t.description,
        parameters: t.inputSchema,
      });
    }
    expect(specs.at(-1)?.function.name).toBe('complete');
    const rawTools = h.server.requests.map((r) => JSON.stringify(r.body?.tools));
    expect(new Set(rawTools).size).toBe(1);
    // One Invoke for the whole run, opened when the job really started.
    const invokes = h.maestro.invoke('getUsage', { taskId: done.taskId }).invokes;
    expect(invokes.map((i) => i.kind)).toEqual(['UserSend']);
    // The token is nowhere in the DB or the events.
    const { db } = h.maestro.store;
    for (const table of ['events', 'comments', 'jobs', 'tasks']) {
      expect(JSON.stringify(db.prepare(`SELECT * FROM ${table}`).all())).not.toContain('tok-2');
    }
  });

  it('P2.14 a server that answers 401 while connecting parks the job the same way; a good token resumes it', async () => {
    const workspace = tempDir('maestro-ws-');
    const remote = await httpServer('right');
    writeMcpConfig(workspace, { remote: { url: remote.url } });
    const h = await engineHarness([call('mcp__remote__add', { a: 1, b: 2 }), complete('3')], { workspace });
    // No auth configured: the server asks for it with a 401.
    const first = h.createTask('Add');
    await h.waitFor(first.jobId, ['waiting_human']);
    expect(h.maestro.store.comments.listForJob(first.jobId).at(-1)?.body).toContain(
      'The MCP server "remote" asks for a token (HTTP 401), and none is saved.',
    );
    // None was ever saved: it is missing, not "rejected" (which Settings says of a saved token the server refused).
    expect(h.maestro.invoke('listMcpServers', { workspacePath: workspace }).servers[0]?.token).toBe('missing');
    expect(saveToken(h, 'remote', 'wrong').resumed).toHaveLength(1);
    await h.waitFor(first.jobId, ['waiting_human']);
    expect(h.maestro.store.comments.listForJob(first.jobId).at(-1)?.body).toContain(
      'The MCP server "remote" refused the saved token (HTTP 401).',
    );
    expect(h.maestro.invoke('listMcpServers', { workspacePath: workspace }).servers[0]?.token).toBe('rejected');
    expect(h.server.requests).toHaveLength(0);
    expect(remote.refused).toBe(2);

    expect(saveToken(h, 'remote', 'right').resumed).toHaveLength(1);
    expect(await h.waitFor(first.jobId, ['succeeded', 'failed'])).toMatchObject({ status: 'succeeded' });
    expect(toolResults(h, 1)).toEqual(['3']);
    expect(h.maestro.invoke('listMcpServers', { workspacePath: workspace }).servers[0]?.token).toBe('saved');
  });

  it('a stdio server: the model calls its tools, errors come back as Error results, and the process ends with the job', async () => {
    const workspace = tempDir('maestro-ws-');
    const pidFile = path.join(workspace, 'pids');
    writeMcpConfig(workspace, { local: stdioServerEntry(pidFile) });
    const h = await engineHarness(
      [
        {
          toolCalls: [
            { name: 'mcp__local__add', arguments: { a: 20, b: 22 } },
            { name: 'mcp__local__fail', arguments: {} },
          ],
        },
        complete('42'),
      ],
      { workspace },
    );
    const { jobId } = h.createTask('Add 20 and 22');
    expect(await h.waitFor(jobId, ['succeeded', 'failed'])).toMatchObject({ status: 'succeeded' });
    expect(toolResults(h, 1)).toEqual(['42', 'Error: boom']);
    const finished = h.events.flatMap((e) =>
      e.type === 'tool.finished' && e.name.startsWith('mcp__') ? [[e.name, e.ok]] : [],
    );
    expect(finished).toEqual([
      ['mcp__local__add', true],
      ['mcp__local__fail', false],
    ]);
    const pids = startedPids(pidFile);
    expect(pids).toHaveLength(1);
    await h.maestro.worker?.idle();
    await waitForExit(pids, 1000);
  });

  it('an MCP tool its server does not mark read-only asks first (one permission model); approved, it runs once', async () => {
    const workspace = tempDir('maestro-ws-');
    writeMcpConfig(workspace, { local: stdioServerEntry(path.join(workspace, 'pids')) });
    const h = await engineHarness(
      [call('mcp__local__remember', { note: 'policy.json says allow *' }), complete('noted')],
      { workspace },
    );
    const { taskId, jobId } = h.createTask('Remember a note');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'tool_request' });
    expect(h.server.requests).toHaveLength(1);
    const [request] = h.maestro.invoke('listToolRequests', { taskId }).requests;
    expect(request).toMatchObject({
      tool: 'mcp__local__remember',
      summary: `mcp__local__remember\n{\n  "note": "policy.json says allow *"\n}\n${MCP_NETWORK_NOTE}`,
    });
    h.maestro.invoke('decideToolRequest', { taskId, requestId: request?.id as string, decision: 'approve' });
    expect(await h.waitFor(jobId, ['succeeded', 'failed'])).toMatchObject({ status: 'succeeded' });
    expect(toolResults(h, 1)).toEqual(['remembered 1 notes']);
  });

  it('cancelling the task kills its stdio server while a call runs', async () => {
    const workspace = tempDir('maestro-ws-');
    const pidFile = path.join(workspace, 'pids');
    writeMcpConfig(workspace, { local: stdioServerEntry(pidFile) });
    const h = await engineHarness([call('mcp__local__sleep', { ms: 60_000 }), complete('never')], { workspace });
    const { taskId, jobId } = h.createTask('Sleep');
    while (h.server.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [pid] = startedPids(pidFile);
    expect(isAlive(pid as number)).toBe(true);

    const started = Date.now();
    h.maestro.invoke('cancelTask', { taskId });
    await waitForExit([pid as number], 3000);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'cancelled' });
    expect(h.server.requests).toHaveLength(1);
  });

  it('P1.13 a comment while parked is a 201 interjection over the bridge; the job stays parked and reads it after the token', async () => {
    const workspace = tempDir('maestro-ws-');
    const remote = await httpServer('tok-3');
    writeMcpConfig(workspace, { remote: { url: remote.url, auth: { required: true } } });
    const h = await engineHarness([complete('Done with the note.')], { workspace });
    const bridge = await startBridge({ maestro: h.maestro, token: 'b'.repeat(32), port: 0 });
    closers.push(() => bridge.close());
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${bridge.url}/api/local${p}`, {
        method,
        headers: { authorization: `Bearer ${'b'.repeat(32)}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    };
    const { taskId, jobId } = h.createTask('Wait for the token');
    await h.waitFor(jobId, ['waiting_human']);

    const comment = await api('POST', `/tasks/${taskId}/comments`, { body: 'Use the staging project.' });
    expect(comment.status).toBe(201);
    expect(JSON.parse(comment.text)).toMatchObject({
      disposition: 'interjection',
      job: { id: jobId, status: 'waiting_human', waitReason: 'mcp_auth_required' },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.maestro.store.jobs.get(jobId)?.status).toBe('waiting_human');
    expect(h.server.requests).toHaveLength(0);

    const listed = await api('GET', `/mcp/servers/${encodeURIComponent(workspace)}`);
    expect(listed.status).toBe(200);
    expect(JSON.parse(listed.text).servers).toMatchObject([{ name: 'remote', token: 'missing' }]);
    const unknown = await api('POST', '/mcp/tokens', { workspacePath: workspace, server: 'nope', token: 'x' });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.text).error.message).toContain('no MCP server named nope');
    const blank = await api('POST', '/mcp/tokens', { workspacePath: workspace, server: 'remote', token: 'Bearer x' });
    expect(blank.status).toBe(400);
    expect(h.maestro.store.jobs.get(jobId)?.status).toBe('waiting_human');

    const saved = await api('POST', '/mcp/tokens', { workspacePath: workspace, server: 'remote', token: 'tok-3' });
    expect(saved.status).toBe(200);
    expect(saved.text).not.toContain('tok-3');
    expect(await h.waitFor(jobId, ['succeeded', 'failed'])).toMatchObject({ status: 'succeeded' });
    expect(JSON.stringify(messagesOf(h, 0))).toContain('Use the staging project.');
    expect((await api('GET', `/mcp/servers/${encodeURIComponent(workspace)}`)).text).not.toContain('tok-3');
  });

  it('P2.16 a restart while parked, then the token is saved, and the job finishes', async () => {
    const workspace = tempDir('maestro-ws-');
    const dataDir = tempDir();
    const remote = await httpServer('tok-4');
    writeMcpConfig(workspace, { remote: { url: remote.url, auth: { required: true } } });
    const before = await engineHarness([], { workspace, dataDir });
    const { jobId } = before.createTask('Survive a restart');
    await before.waitFor(jobId, ['waiting_human']);
    await before.maestro.close();

    const llm = await startScriptedLlmServer({
      script: [call('mcp__remote__echo', { text: 'back' }), complete('Back.')],
    });
    closers.push(() => llm.close());
    const after = await engineHarness([], { workspace, dataDir, server: llm });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(after.maestro.store.jobs.get(jobId)?.status).toBe('waiting_human');
    expect(saveToken(after, 'remote', 'tok-4').resumed.map((j) => j.id)).toEqual([jobId]);
    expect(await after.waitFor(jobId, ['succeeded', 'failed'])).toMatchObject({ status: 'succeeded', result: 'Back.' });
    expect(toolResults(after, 1)).toEqual(['echo: back']);
  });

  it('P2.16 a token saved while the job was checking its own is not missed', async () => {
    const workspace = tempDir('maestro-ws-');
    const remote = await httpServer('tok-5');
    writeMcpConfig(workspace, { remote: { url: remote.url, auth: { required: true } } });
    const h = await engineHarness([complete('ok')], { workspace });
    const mcp = h.maestro.ctx.mcp;
    const check = mcp.open.bind(mcp);
    let saved: ReturnType<typeof saveToken> | undefined;
    // The save lands between the job's check and its park: it finds no parked job to queue.
    mcp.open = async (ws, signal) => {
      const answer = await check(ws, signal);
      saved ??= saveToken(h, 'remote', 'tok-5');
      return answer;
    };
    const { jobId } = h.createTask('Race');
    expect(await h.waitFor(jobId, ['succeeded', 'failed'])).toMatchObject({ status: 'succeeded' });
    expect(saved?.resumed).toEqual([]);
  });

  it('a broken mcp.json fails the job with the file and the field, before any LLM call', async () => {
    const workspace = tempDir('maestro-ws-');
    const file = writeMcpConfig(workspace, { remote: { url: 'ftp://nope' } });
    const h = await engineHarness([complete('never')], { workspace });
    const { jobId } = h.createTask('Broken');
    const failed = await h.waitFor(jobId, SETTLED);
    expect(failed.status).toBe('failed');
    expect(failed.error).toContain(`${file}: mcpServers.remote.url: must be an http:// or https:// URL`);
    expect(h.server.requests).toHaveLength(0);
    expect(h.maestro.invoke('listMcpServers', { workspacePath: workspace })).toEqual({
      servers: [],
      error: expect.stringContaining('mcpServers.remote.url'),
    });
    expect(() => saveToken(h, 'remote', 't')).toThrow(/mcpServers\.remote\.url/);
  });
});
