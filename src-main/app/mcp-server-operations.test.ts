// biome-ignore-all lint/suspicious/noTemplateCurlyInString: mcp.json files write ${…} variables as plain strings
// Settings' "Add MCP server" (issue 23 point 7): a server a person typed is written to the workspace's mcp.json, read
// back by the same loader as a hand-written file, and in force at once; bad input names its field and leaves every
// byte of the file and of the accepted settings as it was; a change waiting for review is neither lost nor accepted;
// a secret env value is sealed in the data dir, never written; server-everything added this way checks "connected".
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MaestroError } from '../../src-shared/errors';
import { EVERYTHING } from '../../test-support/mcp-reference-servers';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { parseMcpConfig } from '../mcp/config';
import { MCP_TOKENS_FILE } from '../mcp/token-store';
import { ACCEPTED_SETTINGS_FILE } from '../workspace/accepted-settings';

function setup() {
  const workspace = fs.realpathSync(tempDir('maestro-ws-'));
  const dataDir = tempDir();
  const maestro = testMaestro({ dataDir, defaultWorkspace: workspace });
  const file = path.join(workspace, '.maestro', 'mcp.json');
  const read = (f: string) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : null);
  const bytes = () => ({
    file: read(file),
    accepted: read(path.join(dataDir, ACCEPTED_SETTINGS_FILE)),
    tokens: read(path.join(dataDir, MCP_TOKENS_FILE)),
  });
  const add = (server: Record<string, unknown>) => maestro.invoke('addMcpServer', { workspacePath: workspace, server });
  return { workspace, dataDir, maestro, file, bytes, add };
}

const everything = (name = 'every', env: unknown[] = []) => ({
  transport: 'stdio',
  name,
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  env,
});

/** The refusal, with the field its issue names. */
function refusal(run: () => unknown): { code: string; field: string; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof MaestroError)) throw error;
    return { code: error.code, field: error.issues?.[0]?.path.join('.') ?? '', message: error.message };
  }
  throw new Error('not refused');
}

describe('Add MCP server', () => {
  it('writes an entry the loader reads back as a hand-written one, in force at once (no review)', () => {
    const s = setup();
    const { server } = s.add({ transport: 'http', name: 'docs', url: 'https://mcp.example.com/mcp' });
    expect(server).toMatchObject({ name: 'docs', transport: 'http', enabled: true, status: 'unknown' });
    s.add({ ...everything(), env: [{ name: 'LOG_LEVEL', value: 'debug' }] });
    const text = fs.readFileSync(s.file, 'utf8');
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        docs: { type: 'http', url: 'https://mcp.example.com/mcp' },
        every: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'], env: { LOG_LEVEL: 'debug' } },
      },
    });
    // The loader jobs use, on the file's own text: nothing in it marks it as written by the app.
    expect(parseMcpConfig(text, s.file, s.workspace).map((c) => c.name)).toEqual(['docs', 'every']);
    expect(s.maestro.invoke('listSettingsChanges', { workspacePath: s.workspace }).changes).toEqual([]);
    expect(s.maestro.ctx.mcp.configs(s.workspace).map((c) => c.name)).toEqual(['docs', 'every']);
  });

  it('bad input names its field and changes nothing: not the file, not the accepted settings', () => {
    const s = setup();
    s.add({ transport: 'http', name: 'docs', url: 'https://mcp.example.com/mcp' });
    const before = s.bytes();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...everything(''), name: '' }, 'server.name', /1–32 letters/],
      [{ ...everything(), name: 'has space' }, 'server.name', /1–32 letters/],
      [{ ...everything(), name: 'docs' }, 'server.name', /docs is already a server/],
      [{ ...everything(), command: '' }, 'server.command', /must not be empty/],
      [{ ...everything(), command: 'bin/server' }, 'server.command', /not a relative path/],
      [{ ...everything(), command: './server' }, 'server.command', /not a relative path/],
      [{ transport: 'http', name: 'web', url: 'ftp://example.com/mcp' }, 'server.url', /http:\/\/ or https:\/\//],
      [{ transport: 'http', name: 'web', url: 'not a url' }, 'server.url', /http:\/\/ or https:\/\//],
      [{ ...everything(), env: [{ name: '1BAD', value: 'x' }] }, 'server.env.0.name', /environment variable name/],
      [{ ...everything(), env: [{ name: 'A-B', value: 'x' }] }, 'server.env.0.name', /environment variable name/],
      [
        {
          ...everything(),
          env: [
            { name: 'A', value: 'x' },
            { name: 'A', value: 'y' },
          ],
        },
        'server.env.1.name',
        /A is given twice/,
      ],
      [
        {
          ...everything(),
          env: [
            { name: 'A', value: 'x', secret: true },
            { name: 'B', value: 'y', secret: true },
          ],
        },
        'server.env.1.secret',
        /only one value/,
      ],
      // Accepted by the form's schema, refused by the loader itself (a variable it does not know): named all the same.
      [{ ...everything(), args: ['${nope}'] }, 'server.args.0', /\$\{nope\} is a secret's placeholder/],
      // The same with a secret: not even the tokens file is touched.
      [
        { ...everything(), args: ['${nope}'], env: [{ name: 'K', value: 'v', secret: true }] },
        'server.args.0',
        /is a secret's placeholder/,
      ],
    ];
    for (const [server, field, message] of cases) {
      const got = refusal(() => s.add(server));
      expect({ code: got.code, field: got.field }, JSON.stringify(server)).toEqual({ code: 'invalid_input', field });
      expect(got.message).toMatch(message);
      expect(s.bytes()).toEqual(before);
    }
  });

  it('a hand edit made since the list was shown is kept, and stays waiting for review (neither lost nor accepted)', () => {
    const s = setup();
    s.add({ transport: 'http', name: 'docs', url: 'https://mcp.example.com/mcp' });
    // A hand (or agent) edit: a server the app never showed, in VS Code's shape.
    const hand = {
      servers: {
        theirs: { type: 'stdio', command: '/usr/bin/their-mcp' },
        docs: { url: 'https://mcp.example.com/mcp' },
      },
    };
    fs.writeFileSync(s.file, JSON.stringify(hand));
    s.add({ transport: 'http', name: 'mine', url: 'http://127.0.0.1:1/mcp' });
    const onDisk = JSON.parse(fs.readFileSync(s.file, 'utf8'));
    expect(Object.keys(onDisk.servers)).toEqual(['theirs', 'docs', 'mine']);
    expect(onDisk.mcpServers).toBeUndefined();
    // In force: the accepted version plus the person's server, never the unreviewed one.
    expect(s.maestro.ctx.mcp.configs(s.workspace).map((c) => c.name)).toEqual(['docs', 'mine']);
    const [change] = s.maestro.invoke('listSettingsChanges', { workspacePath: s.workspace }).changes;
    expect(change?.file).toBe('.maestro/mcp.json');
    expect(change?.diff).toContain('theirs');
    expect(change?.diff).not.toMatch(/^[+-].*"mine"/m);
    // A name the unreviewed edit holds is taken too.
    expect(refusal(() => s.add({ ...everything('theirs') })).field).toBe('server.name');
  });

  it('a broken file is refused with its reason, not overwritten', () => {
    const s = setup();
    fs.mkdirSync(path.dirname(s.file));
    fs.writeFileSync(s.file, '{ "mcpServers": ');
    const before = s.bytes();
    expect(refusal(() => s.add({ transport: 'http', name: 'docs', url: 'https://x.test/mcp' }))).toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/mcp\.json: not valid JSON.*fix the file/),
    });
    expect(s.bytes()).toEqual(before);
  });

  it('P10.11 a secret env value is sealed in the data dir (no file there holds it in clear, the DB included), never written to mcp.json; the server gets it in its environment', async () => {
    const s = setup();
    const secret = 'sk-live-do-not-write-me';
    s.add(everything('every', [{ name: 'API_KEY', value: secret, secret: true }]));
    expect(JSON.parse(fs.readFileSync(s.file, 'utf8')).mcpServers.every.env).toEqual({ API_KEY: '${API_KEY}' });
    for (const f of fs.readdirSync(s.dataDir)) {
      if (fs.statSync(path.join(s.dataDir, f)).isFile()) {
        expect(fs.readFileSync(path.join(s.dataDir, f), 'utf8'), f).not.toContain(secret);
      }
    }
    expect(s.maestro.invoke('listMcpServers', { workspacePath: s.workspace }).servers[0]).toMatchObject({
      name: 'every',
      token: 'saved',
    });
    const opened = await s.maestro.ctx.mcp.open(s.workspace, new AbortController().signal);
    if (opened.kind !== 'ready') throw new Error(opened.message);
    try {
      const getEnv = opened.session.tools.find((t) => t.name === 'mcp__every__get-env');
      const result = (await getEnv?.execute({}, { signal: new AbortController().signal } as never)) as {
        content: string;
      };
      // The session hides a saved token in what a tool answers; the server had it, where the file said.
      expect(result.content).toContain('"API_KEY": "[token]"');
    } finally {
      await opened.session.close();
    }
  });

  it('server-everything added through the op checks "connected" with its tools', async () => {
    const s = setup();
    s.add(everything());
    const { server } = await s.maestro.invoke('checkMcpServer', { workspacePath: s.workspace, server: 'every' });
    expect(server).toMatchObject({ status: 'connected', lastError: null });
    expect(server.tools).toEqual(expect.arrayContaining(['mcp__every__echo', 'mcp__every__get-sum']));
  }, 30_000);

  it('remove takes the server out of the file and the accepted version, with its saved token', () => {
    const s = setup();
    s.add(everything('every', [{ name: 'API_KEY', value: 'k', secret: true }]));
    s.add({ transport: 'http', name: 'docs', url: 'https://x.test/mcp' });
    const { servers } = s.maestro.invoke('removeMcpServer', { workspacePath: s.workspace, server: 'every' });
    expect(servers.map((v) => v.name)).toEqual(['docs']);
    expect(Object.keys(JSON.parse(fs.readFileSync(s.file, 'utf8')).mcpServers)).toEqual(['docs']);
    expect(s.maestro.ctx.mcp.tokens.state(s.workspace, 'every')).toEqual({ hasToken: false, rejected: false });
    const before = s.bytes();
    expect(
      refusal(() => s.maestro.invoke('removeMcpServer', { workspacePath: s.workspace, server: 'every' })),
    ).toMatchObject({
      code: 'not_found',
    });
    expect(s.bytes()).toEqual(before);
  });

  it('only folders MAESTRO works in', () => {
    const s = setup();
    const elsewhere = fs.realpathSync(tempDir('maestro-other-'));
    expect(
      refusal(() =>
        s.maestro.invoke('addMcpServer', {
          workspacePath: elsewhere,
          server: { transport: 'http', name: 'docs', url: 'https://x.test/mcp' },
        }),
      ).code,
    ).toBe('not_found');
    expect(fs.existsSync(path.join(elsewhere, '.maestro'))).toBe(false);
  });
});
