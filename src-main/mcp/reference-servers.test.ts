// biome-ignore-all lint/suspicious/noTemplateCurlyInString: mcp.json files write ${…} variables as plain strings
// The MCP reference servers as their authors meant them to be used, through a job's session: server-everything over
// stdio, streamable HTTP and the older SSE transport — progress notifications for a long-running call, an image, a
// blob resource decoded as text, resource links — and server-filesystem's results.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mcpToolContext } from '../../test-support/connection-kit';
import {
  everythingStdio,
  FILESYSTEM,
  type RunningServer,
  startEverything,
} from '../../test-support/mcp-reference-servers';
import { tempDir } from '../../test-support/temp-maestro';
import type { ToolProgress, ToolResult } from '../tools/types';
import { parseMcpConfig } from './config';
import { McpSession } from './session';

const sessions: McpSession[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
});

const running: RunningServer[] = [];
let http: RunningServer;
let sse: RunningServer;
beforeAll(async () => {
  [http, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
  running.push(http, sse);
}, 30_000);
afterAll(async () => {
  await Promise.all(running.map((r) => r.close()));
});

async function open(entries: Record<string, unknown>, ws = tempDir()) {
  const configs = parseMcpConfig(JSON.stringify({ mcpServers: entries }), 'mcp.json', ws);
  const warnings: string[] = [];
  const session = await McpSession.open(
    configs.map((config) => ({ config, token: null })),
    { signal: new AbortController().signal, clientVersion: 'test', onWarning: (_s, m) => warnings.push(m) },
  );
  sessions.push(session);
  expect(warnings).toEqual([]);
  return session;
}

async function call(session: McpSession, name: string, args: Record<string, unknown>, progress?: ToolProgress[]) {
  const ctx = mcpToolContext(undefined, progress ? (u) => progress.push(u) : undefined);
  const tool = session.tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return (await tool.execute(args, ctx)) as ToolResult;
}

describe.each([
  ['stdio', () => everythingStdio()],
  ['streamable HTTP', () => ({ type: 'http', url: http.url })],
])('server-everything over %s', (_transport, entry) => {
  it('progress of trigger-long-running-operation reaches the call, one notification per step', async () => {
    const session = await open({ every: entry() });
    const progress: ToolProgress[] = [];
    const result = await call(
      session,
      'mcp__every__trigger-long-running-operation',
      { duration: 0.8, steps: 4 },
      progress,
    );
    expect(result).toMatchObject({ ok: true, content: expect.stringContaining('Long running operation completed') });
    // One per step, in order; the last may be lost when it arrives with the result (the SDK handles a notification a
    // tick after the response it came with).
    const all = [1, 2, 3, 4].map((i) => ({ progress: i, total: 4 }));
    expect([all, all.slice(0, 3)]).toContainEqual(progress);
  });

  it('get-tiny-image → an image/png kept as media and described; a Blob resource decoded as its text; resource links named', async () => {
    const session = await open({ every: entry() });
    const image = await call(session, 'mcp__every__get-tiny-image', {});
    expect(image.content).toMatch(
      /^Here's the image you requested:\n\[image image\/png, [\d.]+ KiB\]\nThe image above/,
    );
    expect(image.media).toEqual([
      { kind: 'image', mimeType: 'image/png', data: expect.stringMatching(/^iVBORw0KGgo/) },
    ]);
    const blob = await call(session, 'mcp__every__get-resource-reference', { resourceType: 'Blob', resourceId: 2 });
    expect(blob.content).toContain(
      '[resource demo://resource/dynamic/blob/2 (text/plain)]\nResource 2: This is a base64 blob',
    );
    const links = await call(session, 'mcp__every__get-resource-links', { count: 2 });
    expect(links.content).toMatch(/\[resource link demo:\/\/resource\/dynamic\/(text|blob)\/1 .*\]/);
  });
});

describe('server-everything over SSE ("type": "sse")', () => {
  it('lists its tools and answers a call', async () => {
    const session = await open({ legacy: { type: 'sse', url: sse.url } });
    expect(session.tools.map((t) => t.name)).toContain('mcp__legacy__echo');
    expect((await call(session, 'mcp__legacy__echo', { message: 'over sse' })).content).toBe('Echo: over sse');
  });
});

describe('server-filesystem over stdio (VS Code’s shape, ${workspaceFolder})', () => {
  it('reads a file of the workspace it was given', async () => {
    const ws = tempDir();
    fs.writeFileSync(path.join(ws, 'notes.md'), '# notes\n');
    const configs = parseMcpConfig(
      JSON.stringify({
        servers: { files: { type: 'stdio', command: process.execPath, args: [FILESYSTEM, '${workspaceFolder}'] } },
      }),
      'mcp.json',
      ws,
    );
    const session = await McpSession.open(
      configs.map((config) => ({ config, token: null })),
      { signal: new AbortController().signal, clientVersion: 'test' },
    );
    sessions.push(session);
    const read = await call(session, 'mcp__files__read_text_file', { path: path.join(ws, 'notes.md') });
    expect(read).toMatchObject({ ok: true, content: '# notes\n' });
  });
});
