// Test support for the Agent2Agent protocol: a bridge over an engine harness (a scripted model), driven with the
// official SDK's own clients (1.0 through its ClientFactory and the card, 0.3 through its compat transport) and raw
// JSON-RPC; and remote A2A agents made with the SDK's server pieces on 127.0.0.1, for the a2a_send tool.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AgentCard,
  formatSSEEvent,
  type Message,
  SendMessageRequest,
  SSE_HEADERS,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  createAuthenticatingFetchWithRetry,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';
import { LegacyJsonRpcTransport } from '@a2a-js/sdk/compat/v0_3/client';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
} from '@a2a-js/sdk/server';
import { afterEach } from 'vitest';
import { type Bridge, startBridge } from '../src-main/bridge/server';
import { type ApiResponse, toApiResponse } from './bridge-harness';
import { engineHarness, type Harness } from './engine-harness';
import type { ScriptEntry } from './scripted-llm-server';

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of open.splice(0).reverse()) await close();
});

/** fetch that sends `Authorization: Bearer <token>` (the SDK's own hook for it). */
export const bearerFetch = (token: string): typeof fetch =>
  createAuthenticatingFetchWithRetry(fetch, {
    headers: async () => ({ authorization: `Bearer ${token}` }),
    shouldRetryWithHeaders: async () => undefined,
  });

/** A 1.0 client made as an agent makes one: from the card at `baseUrl`. */
export async function a2aClient(baseUrl: string, token: string): Promise<Client> {
  const transports = [new JsonRpcTransportFactory({ fetchImpl: bearerFetch(token) })];
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports }));
  return factory.createFromUrl(baseUrl);
}

/** A user message as the SDK's types have it; `extra` in its JSON form (taskId, contextId, metadata, parts). */
export const userMessage = (text: string, extra: Record<string, unknown> = {}): SendMessageRequest =>
  SendMessageRequest.fromJSON({
    message: { messageId: `msg-${randomUUID()}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
    ...('configuration' in extra ? { configuration: extra.configuration } : {}),
  });

/** A raw A2A 0.3 JSON-RPC request sending one text message; `extra` goes into the message (taskId, …). */
export const send03 = (text: string, extra: Record<string, unknown> = {}, method = 'message/send') => ({
  jsonrpc: '2.0',
  id: `req-${text}`,
  method,
  params: {
    message: { kind: 'message', messageId: `m-${text}`, role: 'user', parts: [{ kind: 'text', text }], ...extra },
  },
});

export const asTask = (result: Message | Task): Task => {
  if (!('status' in result)) throw new Error(`expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
};

export const taskText = (task: Task): string =>
  task.artifacts.flatMap((a) => a.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : ''))).join('');

export const statusText = (task: Pick<Task, 'status'>): string =>
  (task.status?.message?.parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

export interface A2aBridge {
  h: Harness;
  bridge: Bridge;
  token: string;
  /** The SDK's 1.0 client, made from the card. */
  client: Client;
  /** The SDK's 0.3 transport on the JSON-RPC endpoint (message/send, tasks/get, …). */
  legacy: LegacyJsonRpcTransport;
  rpcUrl: string;
  /** One raw JSON-RPC POST (a string body is sent as is); headers override the defaults. */
  rpc(body: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

export async function a2aBridge(
  script: ScriptEntry[],
  opts: Parameters<typeof engineHarness>[1] = {},
): Promise<A2aBridge> {
  const h = await engineHarness(script, opts);
  const token = randomBytes(32).toString('base64url');
  const bridge = await startBridge({ maestro: h.maestro, token, port: 0 });
  open.push(() => bridge.close());
  const rpcUrl = `${bridge.url}/api/local/a2a`;
  return {
    h,
    bridge,
    token,
    client: await a2aClient(bridge.url, token),
    legacy: new LegacyJsonRpcTransport({ endpoint: rpcUrl, fetchImpl: bearerFetch(token) }),
    rpcUrl,
    async rpc(body, headers = {}) {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return toApiResponse(res);
    },
  };
}

export interface RemoteAgent {
  url: string;
  /** Every JSON-RPC request it received: the headers (authorization included) and the body. */
  requests: { headers: http.IncomingHttpHeaders; body: { method?: string; params?: unknown } }[];
  /** Every card fetch, with its headers. */
  cardFetches: http.IncomingHttpHeaders[];
}

/**
 * A remote agent made with the SDK's server pieces (its request handler and JSON-RPC transport, on node:http):
 * `executor` is its work. With `token`, a JSON-RPC call without `Authorization: Bearer <token>` gets a 401.
 * `cardUrl` overrides the endpoint its card names (an agent pointing elsewhere).
 */
export async function remoteAgent(
  executor: AgentExecutor,
  options: { token?: string; name?: string; cardUrl?: string } = {},
): Promise<RemoteAgent> {
  const requests: RemoteAgent['requests'] = [];
  const cardFetches: RemoteAgent['cardFetches'] = [];
  let card: AgentCard | undefined;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.url === '/.well-known/agent-card.json') {
      cardFetches.push(req.headers);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(AgentCard.toJSON(card as AgentCard)));
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    requests.push({ headers: req.headers, body });
    if (options.token && req.headers.authorization !== `Bearer ${options.token}`) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' });
      return res.end();
    }
    const context = defaultServerCallContextBuilder({
      extensions: undefined,
      user: undefined,
      headers: req.headers,
      requestedVersion: req.headers['a2a-version'] as string | undefined,
    });
    const answer = await new JsonRpcTransportHandler(handler).handle(body, context);
    if (typeof (answer as AsyncGenerator)[Symbol.asyncIterator] === 'function') {
      res.writeHead(200, SSE_HEADERS);
      for await (const event of answer as AsyncGenerator) res.write(formatSSEEvent(event));
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = AgentCard.fromJSON({
    name: options.name ?? 'remote',
    description: 'A remote agent of the tests',
    version: '1.0.0',
    supportedInterfaces: [
      { url: options.cardUrl ?? `${url}/rpc`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'answer', name: 'Answer', description: 'Answers', tags: ['test'] }],
  });
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  open.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return { url, requests, cardFetches };
}

/** What a scripted remote agent does with a message: complete with a result, or ask a question (input-required). */
export type RemoteTurn = { result: string } | { ask: string };

const text = (parts: Message['parts']) =>
  parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

/** A remote agent's work as the SDK's executors do it: the task, then its answer to each message from `turns`. */
export function scriptedAgent(
  turn: (message: string, taskId: string) => RemoteTurn | Promise<RemoteTurn>,
): AgentExecutor {
  return {
    async execute(ctx, bus) {
      const now = () => new Date().toISOString();
      const agentMessage = (body: string) => ({
        messageId: randomUUID(),
        contextId: ctx.contextId,
        taskId: ctx.taskId,
        role: 2,
        parts: [
          {
            content: { $case: 'text' as const, value: body },
            mediaType: 'text/plain',
            filename: '',
            metadata: undefined,
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      });
      bus.publish(
        AgentEvent.task(
          ctx.task ?? {
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: now() },
            artifacts: [],
            history: [ctx.userMessage],
            metadata: {},
          },
        ),
      );
      const next = await turn(text(ctx.userMessage.parts), ctx.taskId);
      if ('ask' in next) {
        const status = {
          state: TaskState.TASK_STATE_INPUT_REQUIRED,
          message: agentMessage(next.ask),
          timestamp: now(),
        };
        bus.publish(AgentEvent.statusUpdate({ taskId: ctx.taskId, contextId: ctx.contextId, status, metadata: {} }));
      } else {
        const parts = agentMessage(next.result).parts;
        const artifact = { artifactId: 'answer', name: 'answer', description: '', parts, metadata: {}, extensions: [] };
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId: ctx.taskId,
            contextId: ctx.contextId,
            artifact,
            append: false,
            lastChunk: true,
            metadata: {},
          }),
        );
        const status = { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: now() };
        bus.publish(AgentEvent.statusUpdate({ taskId: ctx.taskId, contextId: ctx.contextId, status, metadata: {} }));
      }
      bus.finished();
    },
    cancelTask: async () => {},
  };
}
