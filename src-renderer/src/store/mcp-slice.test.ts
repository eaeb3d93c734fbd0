// The MCP slice: which servers the McpAuthCard asks a token for, the list reloaded after a save, and a refused save
// reported without changing what is known.
import { describe, expect, it } from 'vitest';
import type { McpServerView } from '../../../src-shared/contract';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { serversWaitingForToken } from './mcp-slice';
import { createAppStore } from './store';

const server = (name: string, token: McpServerView['token'], takesToken = true): McpServerView => ({
  name,
  transport: 'http',
  authRequired: token === 'missing',
  takesToken,
  token,
  signedIn: false,
  signingIn: false,
  enabled: true,
  status: 'unknown',
  tools: [],
  lastError: null,
  checkedAt: null,
});

const fakeClient = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});

describe('the MCP slice', () => {
  it('asks a token for servers without one, refused, or unreadable — never for ones that take none', () => {
    const all = [
      server('a', 'none'),
      server('b', 'missing'),
      server('c', 'saved'),
      server('d', 'rejected'),
      server('e', 'unreadable'),
      server('f', 'missing', false),
      { ...server('g', 'missing'), enabled: false },
    ];
    expect(serversWaitingForToken(all).map((s) => s.name)).toEqual(['b', 'd', 'e']);
  });

  it('saves a token, then lists the servers again; a refusal comes back as the error and changes nothing', async () => {
    let token: McpServerView['token'] = 'missing';
    const saved: unknown[] = [];
    const store = createAppStore(
      fakeClient({
        listMcpServers: async () => ({ servers: [server('gh', token)], error: null }),
        saveMcpToken: async (input) => {
          if (input.token === 'bad') throw new ApiError('not_found', 'no MCP server named gh');
          saved.push(input);
          token = 'saved';
          return { server: server('gh', 'saved'), resumed: [] };
        },
      }),
    );
    await store.getState().loadMcpServers('/ws');
    expect(store.getState().mcpServers).toEqual({
      workspacePath: '/ws',
      servers: [server('gh', 'missing')],
      error: null,
    });

    const refused = await store.getState().saveMcpToken({ workspacePath: '/ws', server: 'gh', token: 'bad' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(store.getState().mcpServers?.servers[0]?.token).toBe('missing');

    expect(await store.getState().saveMcpToken({ workspacePath: '/ws', server: 'gh', token: 't1' })).toEqual({
      ok: true,
    });
    expect(saved).toEqual([{ workspacePath: '/ws', server: 'gh', token: 't1' }]);
    expect(store.getState().mcpServers?.servers[0]?.token).toBe('saved');
    expect(JSON.stringify(store.getState().mcpServers)).not.toContain('t1');
  });
});
