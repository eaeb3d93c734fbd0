// MCP servers that misbehave, against real processes (the faulty test server speaks raw JSON-RPC; the good one is
// the SDK's): a hang, non-MCP output, an exit at start, a malformed listing or result each get a message naming the
// server within seconds and leave the other servers working; a crash is restarted for the next call, a bounded number
// of times; progress reaches the call and extends its timeout up to its maximum; a cancel sends notifications/cancelled.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mcpToolContext } from '../../test-support/connection-kit';
import { eventLines, faultyServerEntry, startedPids, stdioServerEntry } from '../../test-support/mcp-fixtures';
import { type McpHttpServer, startMcpHttpServer } from '../../test-support/mcp-http-server';
import { tempDir } from '../../test-support/temp-maestro';
import type { ToolOutcome, ToolProgress } from '../tools/types';
import { parseMcpConfig } from './config';
import { MAX_RESTARTS } from './server-slot';
import { McpSession, type ServerState, type SessionServer } from './session';

const sessions: McpSession[] = [];
const https: McpHttpServer[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  for (const h of https.splice(0)) await h.close();
});

interface Opened {
  session: McpSession;
  warnings: string[];
  states: [string, ServerState][];
  ms: number;
}

async function open(entries: Record<string, unknown>, signal = new AbortController().signal): Promise<Opened> {
  const ws = tempDir();
  const configs = parseMcpConfig(JSON.stringify({ mcpServers: entries }), 'mcp.json', ws);
  const list = configs.map((config): SessionServer => ({ config, token: null }));
  const warnings: string[] = [];
  const states: [string, ServerState][] = [];
  const started = Date.now();
  const session = await McpSession.open(list, {
    signal,
    clientVersion: 'test',
    onWarning: (_server, message) => warnings.push(message),
    onServer: (server, state) => states.push([server, state]),
  });
  sessions.push(session);
  return { session, warnings, states, ms: Date.now() - started };
}

const ctx = mcpToolContext;

async function call(session: McpSession, name: string, args: Record<string, unknown> = {}, c = ctx()) {
  const tool = session.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name} in ${session.tools.map((t) => t.name).join(', ')}`);
  const outcome: ToolOutcome = await tool.execute(args, c);
  if (outcome.kind !== 'result') throw new Error('a wait');
  return outcome;
}

describe('MCP servers that misbehave', () => {
  it('a server that never answers initialize is reported at its startup timeout, naming it; the others work', async () => {
    const { session, warnings, states, ms } = await open({
      stuck: faultyServerEntry('hang', { startupTimeoutMs: 600 }),
      good: faultyServerEntry('banner'),
    });
    expect(ms).toBeLessThan(3000);
    expect(warnings).toEqual([
      'MCP server "stuck" is not available in this job: did not finish starting (initialize) within 600 ms. ' +
        'Its tools are not offered; the job goes on without them.',
    ]);
    expect(states).toContainEqual(['stuck', { status: 'failed', error: expect.stringContaining('within 600 ms') }]);
    expect(states).toContainEqual(['good', { status: 'connected', tools: ['mcp__good__ping'] }]);
    // A banner on stdout before the protocol starts is tolerated: the server answered after it.
    expect((await call(session, 'mcp__good__ping')).content).toBe('pong');
  });

  it('a server that prints non-MCP output is reported within seconds, naming what it printed, before its timeout', async () => {
    const { warnings, ms } = await open({ noisy: faultyServerEntry('garbage', { startupTimeoutMs: 30_000 }) });
    expect(ms).toBeLessThan(4000);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^MCP server "noisy" is not available in this job: printed output that is not MCP on stdout: .*Hello/,
      ),
    ]);
  });

  it('a server that exits at start is reported at once with what it said on stderr', async () => {
    const { warnings, ms } = await open({ quits: faultyServerEntry('exit') });
    expect(ms).toBeLessThan(3000);
    expect(warnings).toEqual([
      expect.stringMatching(/^MCP server "quits" .*Connection closed.*fatal: no config found/s),
    ]);
  });

  it('a malformed tool listing leaves the server out; a malformed result is an Error naming the server and the field', async () => {
    const { session, warnings } = await open({
      lister: faultyServerEntry('bad-list'),
      caller: faultyServerEntry('malformed'),
    });
    expect(warnings).toEqual([expect.stringMatching(/^MCP server "lister" .*listing its tools failed: /)]);
    const outcome = await call(session, 'mcp__caller__ping');
    expect(outcome.ok).toBe(false);
    expect(outcome.content).toMatch(/^Error: MCP server "caller": answered ping with a malformed result \(content\.0/);
  });

  it('a crashed server is started again for the next call, at most MAX_RESTARTS times, then left down', async () => {
    const ws = tempDir();
    const pidFile = path.join(ws, 'pids');
    const { session, warnings } = await open({ local: stdioServerEntry(pidFile) });
    const crashed = await call(session, 'mcp__local__crash');
    expect(crashed.ok).toBe(false);
    expect(crashed.content).toMatch(
      /^Error: MCP server "local": exited during the call of crash \(stderr: about to crash\); it is started again for the next call$/,
    );
    expect(warnings.at(-1)).toBe(
      'MCP server "local" exited during the call of crash (stderr: about to crash); it is started again for the next call.',
    );
    expect((await call(session, 'mcp__local__echo', { text: 'back' })).content).toBe('echo: back');
    expect(startedPids(pidFile)).toHaveLength(2);
    for (let i = 1; i < MAX_RESTARTS; i++) {
      await call(session, 'mcp__local__crash');
      expect((await call(session, 'mcp__local__echo', { text: `again ${i}` })).ok).toBe(true);
    }
    const last = await call(session, 'mcp__local__crash');
    expect(last.content).toMatch(/it is not started again$/);
    const down = await call(session, 'mcp__local__echo', { text: 'no' });
    expect(down.content).toBe(
      `Error: MCP server "local": stopped ${MAX_RESTARTS + 1} times in this job; it is not started again`,
    );
    expect(startedPids(pidFile)).toHaveLength(MAX_RESTARTS + 1);
  }, 30_000);
});

describe('MCP progress, timeouts and cancel', () => {
  it('a call sends a progressToken; each progress reaches the call and restarts its timeout', async () => {
    const ws = tempDir();
    const { session } = await open({ local: stdioServerEntry(path.join(ws, 'pids'), { toolTimeoutMs: 1000 }) });
    const seen: ToolProgress[] = [];
    // Six steps of 300 ms: nearly twice the timeout in all, but never a second without a word.
    const done = await call(
      session,
      'mcp__local__steps',
      { count: 6, ms: 300 },
      ctx(undefined, (u) => seen.push(u)),
    );
    expect(done).toMatchObject({ ok: true, content: '6 steps done' });
    // In order; the last may be lost when it arrives with the result (the SDK handles it a tick after the response).
    const all = [1, 2, 3, 4, 5, 6].map((i) => ({ progress: i, total: 6, message: `step ${i} of 6` }));
    expect([all, all.slice(0, 5)]).toContainEqual(seen);
    // Without a word for longer than the timeout: cut.
    const slow = await call(session, 'mcp__local__sleep', { ms: 2500 });
    expect(slow.content).toMatch(/^Error: MCP server "local": .*Request timed out/);
  });

  it('progress extends a call only up to toolMaxMs', async () => {
    const ws = tempDir();
    const { session } = await open({
      local: stdioServerEntry(path.join(ws, 'pids'), { toolTimeoutMs: 1000, toolMaxMs: 1200 }),
    });
    const cut = await call(session, 'mcp__local__steps', { count: 8, ms: 300 });
    expect(cut.content).toMatch(/^Error: MCP server "local": .*Maximum total timeout exceeded/);
  });

  it('cancel: the stdio server gets notifications/cancelled for the call in flight, then ends', async () => {
    const ws = tempDir();
    const events = path.join(ws, 'events');
    const controller = new AbortController();
    const { session } = await open(
      { local: stdioServerEntry(path.join(ws, 'pids'), { env: { MCP_TEST_EVENTS_FILE: events } }) },
      controller.signal,
    );
    const pending = call(session, 'mcp__local__sleep', { ms: 60_000 }, ctx(controller.signal));
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort(new Error('the job was cancelled'));
    expect((await pending).ok).toBe(false);
    for (let i = 0; i < 100 && eventLines(events).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(eventLines(events)).toEqual([
      { cancelled: 'sleep', reason: expect.stringContaining('the job was cancelled') },
    ]);
  });

  it('cancel over streamable HTTP: notifications/cancelled is posted for the call in flight', async () => {
    const http = await startMcpHttpServer();
    https.push(http);
    const controller = new AbortController();
    const { session } = await open({ remote: { url: http.url } }, controller.signal);
    const pending = call(session, 'mcp__remote__sleep', { ms: 60_000 }, ctx(controller.signal));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = Date.now();
    controller.abort(new Error('cancelled'));
    expect((await pending).ok).toBe(false);
    expect(Date.now() - started).toBeLessThan(500);
    for (let i = 0; i < 100 && !http.methods.includes('notifications/cancelled'); i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    // After the call, only its cancellation (the SDK may post it more than once).
    const after = http.methods.slice(http.methods.indexOf('tools/call') + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(after)).toEqual(new Set(['notifications/cancelled']));
  });
});
