// The A2A protocol's edges on the bridge, over real HTTP against a scripted Maestro: discovery (the Agent Card for 1.0
// and 0.3 clients), the 0.3 method names, the bridge token and the protocol's error codes.
import { TaskState } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { describe, expect, it } from 'vitest';
import { a2aBridge, asTask, send03, taskText, userMessage } from '../../test-support/a2a-kit';
import { complete } from '../../test-support/engine-harness';

describe('the Agent Card', () => {
  it('P10.02 is public, lists the pieces as skills, the JSON-RPC endpoint in 1.0 and 0.3, streaming and the bearer scheme', async () => {
    const a = await a2aBridge([]);
    const card = await a.client.getAgentCard();
    const pieces = a.h.maestro.invoke('listPieces', {}).pieces;
    expect(card.skills.map((s) => s.id)).toEqual(pieces.map((p) => p.id));
    expect(card.skills.length).toBeGreaterThan(0);
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.supportedInterfaces).toEqual([
      { url: a.rpcUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: a.rpcUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ]);
    const scheme = Object.values(card.securitySchemes)[0]?.scheme;
    expect(scheme?.$case).toBe('httpAuthSecurityScheme');
    expect(scheme?.$case === 'httpAuthSecurityScheme' && scheme.value.scheme).toBe('Bearer');
    expect(card.securityRequirements.map((r) => Object.keys(r.schemes))).toEqual([Object.keys(card.securitySchemes)]);

    // Without an A2A-Version header (a 0.3 agent), the 0.3 card: url, transport and version at its top.
    const res = await fetch(`${a.bridge.url}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('vary')).toBe('A2A-Version');
    const text = await res.text();
    expect(text).not.toContain(a.token);
    const legacy = JSON.parse(text);
    expect(legacy).toMatchObject({
      url: a.rpcUrl,
      preferredTransport: 'JSONRPC',
      protocolVersion: '0.3',
      capabilities: { streaming: true },
      securitySchemes: { bridgeToken: { type: 'http', scheme: 'Bearer' } },
      security: [{ bridgeToken: [] }],
    });
    expect(legacy.skills.map((s: { id: string }) => s.id)).toEqual(pieces.map((p) => p.id));
    expect((await fetch(`${a.bridge.url}/.well-known/agent-card.json`, { method: 'POST' })).status).toBe(405);
  });

  it('P10.02 a 1.0-only client that fetches the card without a version header finds its 1.0 endpoint and is served', async () => {
    const a = await a2aBridge([complete('Served over 1.0.')]);
    const cardFetches: (string | null)[] = [];
    // The SDK's 1.0 client without its 0.3 compat layer, its card fetch stripped of A2A-Version (as some 1.0 clients
    // fetch it); its calls keep the header its transport sends.
    const fetchImpl: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${a.token}`);
      if (url.endsWith('/.well-known/agent-card.json')) {
        headers.delete('a2a-version');
        cardFetches.push(headers.get('a2a-version'));
      }
      return fetch(input, { ...init, headers });
    };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl })],
        cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
      }),
    );
    const client = await factory.createFromUrl(a.bridge.url);
    expect(cardFetches).toEqual([null]);
    const task = asTask(await client.sendMessage(userMessage('Which version?')));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(taskText(task)).toBe('Served over 1.0.');
    // The same card still reads as 0.3 at its top for a 0.3 agent.
    const legacy = (await (await fetch(`${a.bridge.url}/.well-known/agent-card.json`)).json()) as {
      supportedInterfaces: unknown[];
    };
    expect(legacy).toMatchObject({ url: a.rpcUrl, protocolVersion: '0.3' });
    expect(legacy.supportedInterfaces).toContainEqual(
      expect.objectContaining({ url: a.rpcUrl, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }),
    );
  });
});

describe('A2A 0.3 (message/send, message/stream, tasks/get, tasks/cancel by those names)', () => {
  it('P10.02 the SDK 0.3 transport and raw 0.3 JSON-RPC complete a task and read it back', async () => {
    const a = await a2aBridge([complete('Old style.'), complete('Raw.')]);
    const task = asTask(await a.legacy.sendMessage(userMessage('Old client')));
    expect(taskText(task)).toBe('Old style.');
    expect((await a.legacy.getTask({ tenant: '', id: task.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const raw = await a.rpc(send03('Raw'));
    expect(raw.status).toBe(200);
    expect(raw.json).toMatchObject({
      jsonrpc: '2.0',
      id: 'req-Raw',
      result: {
        kind: 'task',
        status: { state: 'completed' },
        artifacts: [{ parts: [{ kind: 'text', text: 'Raw.' }] }],
      },
    });
    const got = await a.rpc({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: raw.json.result.id } });
    expect(got.json.result).toMatchObject({ id: raw.json.result.id, kind: 'task', status: { state: 'completed' } });
  });

  it('P10.02 message/stream over 0.3 is an event stream of 0.3 events ending in the final status-update', async () => {
    const a = await a2aBridge([{ ...complete('Done.'), delayMs: 100 }]);
    const res = await fetch(a.rpcUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(send03('Go', {}, 'message/stream')),
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const frames = (await res.text())
      .split('\n\n')
      .filter((f) => f.startsWith('data: '))
      .map((f) => JSON.parse(f.slice(6)));
    expect(frames.map((f) => f.result.kind)).toEqual(['task', 'status-update', 'artifact-update', 'status-update']);
    expect(frames.at(-1).result).toMatchObject({ status: { state: 'completed' }, final: true });
  });
});

describe('bad requests', () => {
  it('P1.03 the JSON-RPC endpoint needs the bridge token: 401 and nothing created', async () => {
    const a = await a2aBridge([complete('never')]);
    const body = send03('hi');
    expect((await a.rpc(body, { authorization: '' })).status).toBe(401);
    expect((await a.rpc(body, { authorization: 'Bearer wrong-token-wrong-token-wrong' })).status).toBe(401);
    const get = await fetch(a.rpcUrl, { headers: { authorization: `Bearer ${a.token}` } });
    expect(get.status).toBe(405);
    expect(a.h.maestro.invoke('listTasks', {}).tasks).toEqual([]);
  });

  it('P1.02 what is not valid JSON-RPC gets the protocol error codes, and nothing is created', async () => {
    const a = await a2aBridge([]);
    const message = { kind: 'message', messageId: 'e', role: 'user', parts: [{ kind: 'text', text: 'hi' }] };
    const cases: [unknown, number, Record<string, string>?][] = [
      ['{"jsonrpc": "2.0", "method": ', -32700],
      [[], -32600],
      [{ jsonrpc: '1.0', id: 1, method: 'message/send' }, -32600],
      [{ jsonrpc: '2.0', id: 1, method: 'tasks/frobnicate', params: {} }, -32601],
      [{ jsonrpc: '2.0', id: 1, method: 'tasks/get' }, -32602],
      [{ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { ...message, parts: [] } } }, -32602],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: { message: { ...message, metadata: { pieceId: 'nope' } } },
        },
        -32602,
      ],
      [{ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'no-such-task' } }, -32001],
      [
        { jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { ...message, taskId: 'no-such-task' } } },
        -32001,
      ],
      [{ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'x' } }, -32005, { 'content-type': 'text/plain' }],
      [{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }, -32009, { 'a2a-version': '2.0' }],
      [{ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'no-such-task' } }, -32001, { 'a2a-version': '1.0' }],
      [{ jsonrpc: '2.0', id: 1, method: 'message/send', params: {} }, -32601, { 'a2a-version': '1.0' }],
    ];
    for (const [body, code, headers] of cases) {
      const res = await a.rpc(body, headers);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.json?.error?.code, `${JSON.stringify(body)} → ${res.text}`).toBe(code);
      expect(res.json.jsonrpc).toBe('2.0');
    }
    const unknownPiece = await a.rpc(cases[6]?.[0]);
    expect(unknownPiece.json.error.message).toContain('pieceId');
    expect(a.h.maestro.invoke('listTasks', {}).tasks).toEqual([]);
  });
});
