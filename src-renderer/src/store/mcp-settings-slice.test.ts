// Settings' MCP section in the store: the chosen workspace's servers, a switch or a check replacing that server's
// row with main's answer, and a refusal coming back as its message with the row unchanged; a server added is listed
// and checked at once, a refused one changes nothing and comes back with its issues; a removal replaces the list.
import { describe, expect, it, vi } from 'vitest';
import type { McpServerView } from '../../../src-shared/contract';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { createAppStore } from './store';

const server = (name: string, extra: Partial<McpServerView> = {}): McpServerView => ({
  name,
  transport: 'stdio',
  authRequired: false,
  takesToken: false,
  token: 'none',
  signedIn: false,
  signingIn: false,
  enabled: true,
  status: 'unknown',
  tools: [],
  lastError: null,
  checkedAt: null,
  ...extra,
});

const fakeClient = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});

describe('the MCP settings slice', () => {
  it('loads a workspace’s servers; switching and checking replace the server’s row; a refusal is its message', async () => {
    const store = createAppStore(
      fakeClient({
        listMcpServers: async () => ({ servers: [server('a'), server('b')], error: null }),
        setMcpServerEnabled: async ({ server: name, enabled }) => ({ server: server(name, { enabled }) }),
        checkMcpServer: async ({ server: name }) => {
          if (name === 'b') throw new ApiError('not_found', 'no MCP server named b in /ws/.maestro/mcp.json');
          return { server: server(name, { status: 'connected', tools: ['mcp__a__x'], checkedAt: 'now' }) };
        },
      }),
    );
    await store.getState().loadMcpSettings('/ws');
    expect(store.getState().mcpSettings?.servers.map((s) => s.name)).toEqual(['a', 'b']);

    expect(await store.getState().switchMcpServer('a', false)).toBeNull();
    expect(store.getState().mcpSettings?.servers[0]).toMatchObject({ name: 'a', enabled: false });
    expect(await store.getState().checkMcpServer('a')).toBeNull();
    expect(store.getState().mcpSettings?.servers[0]).toMatchObject({ status: 'connected', tools: ['mcp__a__x'] });

    expect(await store.getState().checkMcpServer('b')).toBe('no MCP server named b in /ws/.maestro/mcp.json');
    expect(store.getState().mcpSettings?.servers[1]).toEqual(server('b'));
    expect(store.getState().mcpSettingsBusy).toEqual([]);
  });

  it('adds a server, then checks it; a refused one leaves the list as it was; removing replaces the list', async () => {
    const checked: string[] = [];
    const store = createAppStore(
      fakeClient({
        listMcpServers: async () => ({ servers: [server('b')], error: null }),
        addMcpServer: async ({ server: draft }) => {
          if (draft.name === 'bad') {
            throw new ApiError('invalid_input', 'server.name: taken', [{ path: ['server.name'], message: 'taken' }]);
          }
          return { server: server(draft.name) };
        },
        checkMcpServer: async ({ server: name }) => {
          checked.push(name);
          return { server: server(name, { status: 'connected', tools: ['mcp__a__echo'] }) };
        },
        removeMcpServer: async () => ({ servers: [server('a')] }),
      }),
    );
    await store.getState().loadMcpSettings('/ws');
    expect(await store.getState().addMcpServer({ transport: 'http', name: 'a', url: 'https://x.test/mcp' })).toBeNull();
    await vi.waitFor(() => expect(store.getState().mcpSettings?.servers[0]).toMatchObject({ status: 'connected' }));
    expect(store.getState().mcpSettings?.servers.map((s) => s.name)).toEqual(['a', 'b']);
    expect(checked).toEqual(['a']);

    const refused = await store.getState().addMcpServer({ transport: 'http', name: 'bad', url: 'https://x.test/mcp' });
    expect(refused?.issues).toEqual([{ path: ['server.name'], message: 'taken' }]);
    expect(store.getState().mcpSettings?.servers.map((s) => s.name)).toEqual(['a', 'b']);
    expect(checked).toEqual(['a']);

    expect(await store.getState().removeMcpServer('b')).toBeNull();
    expect(store.getState().mcpSettings?.servers.map((s) => s.name)).toEqual(['a']);
  });
});
