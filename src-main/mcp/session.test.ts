// A job's MCP session against real servers: the stdio test server as a child process and the streamable HTTP one on
// 127.0.0.1, through the SDK's client. Tools, results, errors, 401s, closing and killing; a server that cannot be
// started is left out with a warning, and the others' tools are offered.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpToolContext } from '../../test-support/connection-kit';
import { isAlive, startedPids, stdioServerEntry, waitForExit } from '../../test-support/mcp-fixtures';
import { type McpHttpServer, startMcpHttpServer } from '../../test-support/mcp-http-server';
import { TEST_MCP_TOOLS } from '../../test-support/mcp-test-tools';
import { tempDir } from '../../test-support/temp-maestro';
import { parseMcpConfig } from './config';
import { McpAuthError } from './connection-errors';
import { McpSession, type SessionServer } from './session';

const https: McpHttpServer[] = [];
const sessions: McpSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  for (const h of https.splice(0)) await h.close();
});

function servers(workspace: string, entries: Record<string, unknown>, tokens: Record<string, string> = {}) {
  const configs = parseMcpConfig(JSON.stringify({ mcpServers: entries }), 'mcp.json', workspace);
  return configs.map((config): SessionServer => ({ config, token: tokens[config.name] ?? null }));
}

const warnings: string[] = [];
afterEach(() => {
  warnings.length = 0;
});

async function open(list: SessionServer[], signal = new AbortController().signal) {
  const session = await McpSession.open(list, {
    signal,
    timeouts: { startupMs: 20_000 },
    clientVersion: 'test',
    onWarning: (_server, message) => warnings.push(message),
  });
  sessions.push(session);
  return session;
}

const ctx = mcpToolContext;

const run = async (session: McpSession, name: string, args: Record<string, unknown>) => {
  const tool = session.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  const outcome = await tool.execute(args, ctx());
  return outcome.kind === 'result' ? outcome.content : outcome;
};

describe('an MCP session', () => {
  it('lists a stdio server’s tools as mcp__<server>__<tool>, sorted, with its schemas and descriptions verbatim', async () => {
    const ws = tempDir();
    const pidFile = path.join(ws, 'pids');
    const session = await open(servers(ws, { local: stdioServerEntry(pidFile) }));
    expect(session.tools.map((t) => t.name)).toEqual([
      'mcp__local__add',
      'mcp__local__crash',
      'mcp__local__echo',
      'mcp__local__fail',
      'mcp__local__media',
      'mcp__local__remember',
      'mcp__local__sleep',
      'mcp__local__steps',
      'mcp__local__whoami',
    ]);
    for (const listed of TEST_MCP_TOOLS) {
      const tool = session.tools.find((t) => t.name === `mcp__local__${listed.name}`);
      expect(tool?.jsonSchema).toEqual(listed.inputSchema);
      expect(tool?.description).toBe(listed.description);
      expect(tool?.readOnly).toBe(listed.annotations?.readOnlyHint === true);
    }
    expect(await run(session, 'mcp__local__echo', { text: 'hi' })).toBe('echo: hi');
    expect(await run(session, 'mcp__local__add', { a: 2, b: 40 })).toBe('42');
    expect(await run(session, 'mcp__local__fail', {})).toBe('Error: boom');
    // Arguments are the server's to judge: a wrong one comes back from it, not from a local schema.
    expect(await run(session, 'mcp__local__add', { a: 'x' })).toBe('NaN');
    expect(session.tools[0]?.parameters.safeParse([1]).success).toBe(false);
    expect(session.tools[0]?.parameters.safeParse({ any: 'thing' }).success).toBe(true);

    const [pid] = startedPids(pidFile);
    expect(session.pids).toEqual([pid]);
    expect(isAlive(pid as number)).toBe(true);
    await session.close();
    await waitForExit([pid as number]);
  });

  it('kills the stdio servers when the job’s signal aborts, even inside a call', async () => {
    const ws = tempDir();
    const pidFile = path.join(ws, 'pids');
    const controller = new AbortController();
    const session = await open(
      servers(ws, { a: stdioServerEntry(pidFile), b: stdioServerEntry(pidFile) }),
      controller.signal,
    );
    const pids = startedPids(pidFile);
    expect(pids).toHaveLength(2);
    const sleep = session.tools.find((t) => t.name === 'mcp__a__sleep');
    const pending = sleep?.execute({ ms: 60_000 }, ctx(controller.signal));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    controller.abort(new Error('cancelled'));
    const outcome = await pending;
    expect(outcome).toMatchObject({
      kind: 'result',
      ok: false,
      content: expect.stringMatching(/^Error: MCP server "a": /),
    });
    await waitForExit(pids, 3000);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('sends the token as the Authorization header over HTTP; without it, or with a wrong one, McpAuthError', async () => {
    const ws = tempDir();
    const http = await startMcpHttpServer({ token: 'tok-123' });
    https.push(http);
    const entry = { remote: { url: http.url, auth: { required: true } } };
    await expect(open(servers(ws, entry))).rejects.toBeInstanceOf(McpAuthError);
    await expect(open(servers(ws, entry, { remote: 'wrong' }))).rejects.toMatchObject({ server: 'remote' });
    expect(http.refused).toBe(2);

    const session = await open(servers(ws, entry, { remote: 'tok-123' }));
    expect(await run(session, 'mcp__remote__echo', { text: 'over http' })).toBe('echo: over http');
    expect(http.authorizations.at(-1)).toBe('Bearer tok-123');
    // A server that echoes the token does not hand it to the model.
    expect(await run(session, 'mcp__remote__whoami', {})).toBe('credential: Bearer [token]');
  });

  it('a header other than Authorization carries the token as it is', async () => {
    const ws = tempDir();
    const http = await startMcpHttpServer();
    https.push(http);
    const session = await open(
      servers(
        ws,
        { remote: { url: http.url, headers: { 'X-Team': 'a' }, auth: { header: 'X-Api-Key' } } },
        { remote: 'k1' },
      ),
    );
    expect(session.tools).toHaveLength(TEST_MCP_TOOLS.length);
    expect(http.authorizations.every((a) => a === undefined)).toBe(true);
  });

  it('gives a stdio server its token in the environment variable auth.env, and redacts it from results', async () => {
    const ws = tempDir();
    const session = await open(
      servers(
        ws,
        { local: stdioServerEntry(path.join(ws, 'pids'), { auth: { env: 'MCP_TEST_TOKEN' } }) },
        { local: 's3cret-token' },
      ),
    );
    expect(await run(session, 'mcp__local__whoami', {})).toBe('credential: [token]');
  });

  it('a program that does not exist, or a server that exits at start, is left out naming it; the others are offered', async () => {
    const ws = tempDir();
    const pidFile = path.join(ws, 'pids');
    const started = Date.now();
    const session = await open(
      servers(ws, {
        gone: { command: path.join(ws, 'no-such-program') },
        good: stdioServerEntry(pidFile),
        quits: { command: process.execPath, args: ['-e', 'console.error("bad config"); process.exit(3)'] },
      }),
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(session.tools.map((t) => t.name)).toContain('mcp__good__echo');
    expect(session.tools.some((t) => /^mcp__(gone|quits)__/.test(t.name))).toBe(false);
    expect(await run(session, 'mcp__good__echo', { text: 'still here' })).toBe('echo: still here');
    expect(warnings.sort()).toEqual([
      expect.stringMatching(/^MCP server "gone" is not available in this job: .*ENOENT.*Its tools are not offered/),
      expect.stringMatching(/^MCP server "quits" is not available in this job: .*Connection closed.*bad config/s),
    ]);
  });

  it('an HTTP server that cannot be reached is left out; the stdio server beside it keeps working', async () => {
    const ws = tempDir();
    const pidFile = path.join(ws, 'pids');
    const session = await open(servers(ws, { a: stdioServerEntry(pidFile), down: { url: 'http://127.0.0.1:9/mcp' } }));
    expect(session.tools.map((t) => t.name)).toContain('mcp__a__add');
    expect(await run(session, 'mcp__a__add', { a: 1, b: 2 })).toBe('3');
    expect(warnings).toEqual([expect.stringMatching(/^MCP server "down" is not available in this job: /)]);
    await session.close();
    await waitForExit(startedPids(pidFile), 3000);
  });

  it('a refused token still stops the session, and what was started is stopped again', async () => {
    const ws = tempDir();
    const pidFile = path.join(ws, 'pids');
    const http = await startMcpHttpServer({ token: 'right' });
    https.push(http);
    const attempt = open(servers(ws, { a: stdioServerEntry(pidFile), remote: { url: http.url } }, { remote: 'wrong' }));
    await expect(attempt).rejects.toBeInstanceOf(McpAuthError);
    await waitForExit(startedPids(pidFile), 3000);
  });
});
