import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeMcpConfig } from '../../test-support/mcp-fixtures';
import { tempDir } from '../../test-support/temp-maestro';
import { ConfigFileError } from '../workspace/json-file';
import { loadMcpConfig, mcpFile, parseMcpConfig, takesToken } from './config';
import { assignToolNames, mcpToolName, toolResult } from './mcp-tools';

const parse = (value: unknown, ws = '/ws') => parseMcpConfig(JSON.stringify(value), 'mcp.json', ws);

describe('mcp.json', () => {
  it('no file → no servers; stdio and HTTP entries with defaults, sorted by name, cwd against the workspace', () => {
    const ws = tempDir();
    expect(loadMcpConfig(ws)).toEqual([]);
    writeMcpConfig(ws, {
      web: { url: 'https://mcp.example/v1', headers: { 'X-Team': 'a' }, auth: { required: true } },
      files: { command: 'node', args: ['server.js'], env: { LEVEL: '2' }, cwd: 'tools', network: ['api.example'] },
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
        authRequired: false,
        tokenEnv: null,
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
        authRequired: true,
        tokenEnv: 'API_TOKEN',
      },
      {
        name: 'open',
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: {},
        authRequired: false,
        tokenHeader: 'Authorization',
      },
      {
        name: 'web',
        transport: 'http',
        url: 'https://mcp.example/v1',
        headers: { 'X-Team': 'a' },
        authRequired: true,
        tokenHeader: 'Authorization',
      },
    ]);
    expect(loadMcpConfig(ws).map(takesToken)).toEqual([false, true, true, true]);
  });

  it.each([
    ['not JSON', '{ "mcpServers": ', /^mcp\.json: not valid JSON/],
    ['no mcpServers', {}, /^mcp\.json: mcpServers: /],
    [
      'an unknown top-level key',
      { mcpServers: {}, servers: {} },
      /^mcp\.json: \(top level\): Unrecognized key: "servers"/,
    ],
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

  it('text content joined; other content named; isError → a failure written as Error: …', () => {
    const resultText = (r: Parameters<typeof toolResult>[0]) => toolResult(r).content;
    expect(toolResult({ content: [{ type: 'text', text: 'a' }] }).ok).toBe(true);
    expect(toolResult({ content: [{ type: 'text', text: 'Error: in the text only' }] }).ok).toBe(true);
    expect(toolResult({ isError: true }).ok).toBe(false);
    expect(
      resultText({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\nb');
    expect(
      resultText({
        content: [
          { type: 'image', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'file:///x', text: 'inside' } },
          { type: 'resource_link', uri: 'file:///y' },
        ],
      }),
    ).toBe('[image image/png content not shown]\ninside\n[resource link file:///y]');
    expect(resultText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
    expect(resultText({ content: [{ type: 'text', text: 'nope' }], isError: true })).toBe('Error: nope');
    expect(resultText({ content: [{ type: 'text', text: 'Error: nope' }], isError: true })).toBe('Error: nope');
    expect(resultText({ isError: true })).toBe('Error: the tool failed without saying why');
  });
});
