// biome-ignore-all lint/suspicious/noTemplateCurlyInString: mcp.json files write ${…} variables as plain strings
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMcpConfig } from '../../test-support/mcp-fixtures';
import { tempDir } from '../../test-support/temp-maestro';
import { ConfigFileError } from '../workspace/json-file';
import { formatToken, loadMcpConfig, type McpServerConfig, mcpFile, parseMcpConfig, takesToken } from './config';
import { assignToolNames, mcpToolName } from './mcp-tools';

const parse = (value: unknown, ws = '/ws') => parseMcpConfig(JSON.stringify(value), 'mcp.json', ws);
/** What every entry has when the file says nothing of it: on, the app's timeouts, the token as it is (or Bearer). */
const plain = { enabled: true, timeouts: {}, tokenFormat: { before: '', after: '' } };
const bearer = { ...plain, tokenFormat: { before: 'Bearer ', after: '' } };

describe('mcp.json', () => {
  it('no file → no servers; stdio and HTTP entries with defaults, sorted by name, cwd against the workspace', () => {
    const ws = tempDir();
    expect(loadMcpConfig(ws)).toEqual([]);
    writeMcpConfig(ws, {
      web: { url: 'https://mcp.example/v1', headers: { 'X-Team': 'a' }, auth: { required: true } },
      files: {
        command: 'node',
        args: ['server.js'],
        env: { LEVEL: '2' },
        cwd: 'tools',
        network: ['api.example'],
        readable: ['/opt/servers', 'vendor/mcp'],
      },
      keyed: { command: 'srv', auth: { env: 'API_TOKEN' } },
      open: { url: 'http://127.0.0.1:9/mcp' },
    });
    expect(loadMcpConfig(ws)).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'node',
        args: ['server.js'],
        env: { LEVEL: '2' },
        cwd: path.join(ws, 'tools'),
        workspacePath: ws,
        network: ['api.example'],
        readable: ['/opt/servers', path.join(ws, 'vendor/mcp')],
        authRequired: false,
        tokenEnv: null,
        ...plain,
      },
      {
        name: 'keyed',
        transport: 'stdio',
        command: 'srv',
        args: [],
        env: {},
        cwd: ws,
        workspacePath: ws,
        network: [],
        readable: [],
        authRequired: true,
        tokenEnv: 'API_TOKEN',
        ...plain,
      },
      {
        name: 'open',
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: {},
        authRequired: false,
        tokenHeader: 'Authorization',
        ...bearer,
      },
      {
        name: 'web',
        transport: 'http',
        url: 'https://mcp.example/v1',
        headers: { 'X-Team': 'a' },
        authRequired: true,
        tokenHeader: 'Authorization',
        ...bearer,
      },
    ]);
    expect(loadMcpConfig(ws).map(takesToken)).toEqual([false, true, true, true]);
  });

  it('Claude Code’s shape: "type" stdio | http | sse; ${VAR:-default} is its default, ${VAR} in a header is the server’s token', () => {
    expect(
      parse({
        mcpServers: {
          files: { type: 'stdio', command: 'npx', args: ['-y', 'server'], env: { DEBUG: '${DEBUG:-false}' } },
          github: {
            type: 'http',
            url: 'https://api.example/mcp',
            headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
          },
          legacy: { type: 'sse', url: 'https://old.example/sse', headers: { 'X-API-Key': '${API_KEY}' } },
        },
      }),
    ).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'server'],
        env: { DEBUG: 'false' },
        cwd: '/ws',
        workspacePath: '/ws',
        network: [],
        readable: [],
        authRequired: false,
        tokenEnv: null,
        ...plain,
      },
      {
        name: 'github',
        transport: 'http',
        url: 'https://api.example/mcp',
        headers: {},
        authRequired: true,
        tokenHeader: 'Authorization',
        ...bearer,
      },
      {
        name: 'legacy',
        transport: 'sse',
        url: 'https://old.example/sse',
        headers: {},
        authRequired: true,
        tokenHeader: 'X-API-Key',
        ...plain,
      },
    ]);
  });

  it('VS Code’s shape: "servers" and "inputs"; ${input:id} is the server’s token, ${workspaceFolder} the workspace', () => {
    const [docs, tracker] = parse({
      inputs: [{ type: 'promptString', id: 'tracker-key', description: 'Tracker API key', password: true }],
      servers: {
        tracker: { type: 'stdio', command: 'tracker-mcp', env: { TRACKER_KEY: 'key=${input:tracker-key};v1' } },
        docs: {
          type: 'stdio',
          command: 'node',
          args: ['${workspaceFolder}/mcp/docs.js', '--root', '${workspaceFolder}'],
          cwd: '${workspaceFolder}/mcp',
        },
      },
    });
    expect(docs).toMatchObject({ args: ['/ws/mcp/docs.js', '--root', '/ws'], cwd: '/ws/mcp', tokenEnv: null });
    expect(tracker).toMatchObject({
      env: {},
      authRequired: true,
      tokenEnv: 'TRACKER_KEY',
      tokenFormat: { before: 'key=', after: ';v1' },
    });
    expect(formatToken(tracker as McpServerConfig, 't0k')).toBe('key=t0k;v1');
  });

  it('Cursor’s shape: mcpServers with url or command; ${env:NAME} is the server’s token; disabled and timeouts', () => {
    const [remote, search] = parse({
      mcpServers: {
        search: { command: 'search-mcp', env: { SEARCH_KEY: '${env:SEARCH_KEY}' }, disabled: true },
        remote: { url: 'http://127.0.0.1:9/mcp', startupTimeoutMs: 2000, toolTimeoutMs: 300_000, toolMaxMs: 3_600_000 },
      },
    });
    expect(search).toMatchObject({ transport: 'stdio', enabled: false, tokenEnv: 'SEARCH_KEY', authRequired: true });
    expect(remote).toMatchObject({
      transport: 'http',
      enabled: true,
      authRequired: false,
      timeouts: { startupMs: 2000, toolMs: 300_000, toolMaxMs: 3_600_000 },
    });
  });

  it.each([
    ['not JSON', '{ "mcpServers": ', /^mcp\.json: not valid JSON/],
    ['no mcpServers', {}, /^mcp\.json: \(top level\): needs one of mcpServers/],
    [
      'both mcpServers and servers',
      { mcpServers: {}, servers: {} },
      /^mcp\.json: \(top level\): needs one of mcpServers \(Claude Code, Cursor, MAESTRO\) or servers \(VS Code\)/,
    ],
    ['an unknown top-level key', { mcpServers: {}, tools: [] }, /^mcp\.json: \(top level\): Unrecognized key: "tools"/],
    [
      'envFile (it would be read without review)',
      { servers: { a: { type: 'stdio', command: 'x', envFile: '${workspaceFolder}/.env' } } },
      /servers\.a\.envFile: is not supported: it would be read without review; use env/,
    ],
    [
      'a VS Code input that is not declared',
      { servers: { a: { type: 'http', url: 'http://h', headers: { 'X-Key': '${input:key}' } } } },
      /servers\.a: \$\{input:key\} names no entry of inputs/,
    ],
    [
      'a secret placeholder in args',
      { mcpServers: { a: { command: 'x', args: ['--token', '${GITHUB_TOKEN}'] } } },
      /mcpServers\.a\.args\.1: \$\{GITHUB_TOKEN\} is a secret's placeholder; MAESTRO passes a server's token only in an env value or a header/,
    ],
    [
      'an unknown variable',
      { mcpServers: { a: { command: '${command:pick}' } } },
      /mcpServers\.a\.command: unknown variable \$\{command:pick\}/,
    ],
    [
      'two token placeholders in one server',
      { mcpServers: { a: { command: 'x', env: { A: '${A_KEY}', B: '${B_KEY}' } } } },
      /mcpServers\.a\.env\.B: MAESTRO keeps one token per server \(A has one\)/,
    ],
    [
      'a placeholder and auth both',
      { mcpServers: { a: { url: 'http://h', headers: { Authorization: 'Bearer ${T}' }, auth: { required: true } } } },
      /mcpServers\.a: give either auth or a token placeholder in headers/,
    ],
    ['type stdio with a url', { mcpServers: { a: { type: 'stdio', url: 'http://h' } } }, /mcpServers\.a\.command: /],
    ['type http with a command', { mcpServers: { a: { type: 'http', command: 'x' } } }, /mcpServers\.a\.url: /],
    [
      'a timeout under 100 ms',
      { mcpServers: { a: { command: 'x', startupTimeoutMs: 5 } } },
      /mcpServers\.a\.startupTimeoutMs: must be at least 100 ms/,
    ],
    ['a bad type', { mcpServers: { a: { type: 'websocket', url: 'ws://h' } } }, /mcpServers\.a\.type: /],
    ['a bad server name', { mcpServers: { 'my server': { command: 'x' } } }, /mcpServers\.my server: the name must be/],
    [
      'neither command nor url',
      { mcpServers: { a: { args: [] } } },
      /mcpServers\.a: needs either command \(stdio\) or url/,
    ],
    ['both command and url', { mcpServers: { a: { command: 'x', url: 'http://h' } } }, /mcpServers\.a: give either/],
    ['an empty command', { mcpServers: { a: { command: '' } } }, /mcpServers\.a\.command: must not be empty/],
    ['args not strings', { mcpServers: { a: { command: 'x', args: [1] } } }, /mcpServers\.a\.args\.0: /],
    [
      'a bad URL',
      { mcpServers: { a: { url: 'ftp://h/x' } } },
      /mcpServers\.a\.url: must be an http:\/\/ or https:\/\/ URL/,
    ],
    [
      'a header on a stdio server',
      { mcpServers: { a: { command: 'x', auth: { header: 'A' } } } },
      /mcpServers\.a\.auth: /,
    ],
    [
      'a bad header name',
      { mcpServers: { a: { url: 'http://h', auth: { header: 'A B' } } } },
      /mcpServers\.a\.auth\.header: must be an HTTP header name/,
    ],
    [
      'an unknown server key',
      { mcpServers: { a: { url: 'http://h', token: 'x' } } },
      /mcpServers\.a: Unrecognized key: "token"/,
    ],
  ])('%s → ConfigFileError naming the file and the field', (_what, value, message) => {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    expect(() => parseMcpConfig(text, 'mcp.json', '/ws')).toThrow(ConfigFileError);
    expect(() => parseMcpConfig(text, 'mcp.json', '/ws')).toThrow(message);
  });

  it('an unreadable file names itself', () => {
    const ws = tempDir();
    fs.mkdirSync(mcpFile(ws), { recursive: true });
    expect(() => loadMcpConfig(ws)).toThrow(new RegExp(`^${mcpFile(ws)}: cannot be read \\(EISDIR\\)`));
  });

  it('parse keeps the same answer for the same file (a fresh read per job)', () => {
    const value = { mcpServers: { b: { command: 'x' }, a: { url: 'http://h' } } };
    expect(parse(value)).toEqual(parse(value));
  });
});

describe('MCP tool names and results', () => {
  it('mcp__<server>__<tool> in [A-Za-z0-9_-], at most 64 characters, unique and stable', () => {
    expect(mcpToolName('gh', 'list.issues v2')).toBe('mcp__gh__list_issues_v2');
    expect(mcpToolName('s', 'x'.repeat(100))).toHaveLength(64);
    const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });
    const named = assignToolNames([
      { server: 'b', tool: tool('z') },
      { server: 'a', tool: tool('a.b') },
      { server: 'a', tool: tool('a_b') },
      { server: 'a', tool: tool(`${'y'.repeat(70)}1`) },
      { server: 'a', tool: tool(`${'y'.repeat(70)}2`) },
    ]);
    expect(named.map((t) => [t.tool.name.slice(0, 6), t.name])).toEqual([
      ['a.b', 'mcp__a__a_b'],
      ['a_b', 'mcp__a__a_b_2'],
      ['yyyyyy', `mcp__a__${'y'.repeat(56)}`],
      ['yyyyyy', `mcp__a__${'y'.repeat(54)}_2`],
      ['z', 'mcp__b__z'],
    ]);
    for (const t of named) expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});
