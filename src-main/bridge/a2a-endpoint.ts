// The Agent2Agent protocol on the bridge, over the SDK's transport-agnostic pieces: the Agent Card at
// /.well-known/agent-card.json (no token), and JSON-RPC at /api/local/a2a (the bridge's token, checked by server.ts).
// As the SDK's own Express layer does it: the A2A-Version header picks the protocol (absent: 0.3, whose methods are
// message/send, message/stream, tasks/get, tasks/cancel; 1.0: SendMessage, SendStreamingMessage, GetTask, CancelTask,
// ListTasks), a body that is not JSON is -32700, streams are Server-Sent Events.
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  A2A_VERSION_HEADER,
  AgentCard,
  Extensions,
  formatSSEErrorEvent,
  formatSSEEvent,
  HTTP_EXTENSION_HEADER,
  SSE_HEADERS,
} from '@a2a-js/sdk';
import { LEGACY_HTTP_EXTENSION_HEADER } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler, LegacyRestTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { ContentTypeNotSupportedError } from '@a2a-js/sdk/errors';
import {
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  ServerCallContext,
  type User,
  validateVersion,
} from '@a2a-js/sdk/server';
import { API_PREFIX } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { A2A_RPC_PATH, agentCard } from '../a2a/agent-card';
import { type A2aHost, MaestroRequestHandler } from '../a2a/request-handler';
import { readJson, sendJson } from './json-http';

export const A2A_PATH = API_PREFIX + A2A_RPC_PATH;
const LEGACY_VERSION = '0.3';

/** Whoever holds the bridge's token (server.ts checked it before this runs). */
const BRIDGE_USER: User = { isAuthenticated: true, userName: 'bridge' };

type RpcResponse = { jsonrpc: string; id: string | number | null; result?: unknown; error?: unknown };
type RpcAnswer = RpcResponse | AsyncGenerator<RpcResponse, void, undefined>;

export class A2aEndpoint {
  private readonly handler: MaestroRequestHandler;
  private readonly v1: JsonRpcTransportHandler;
  private readonly legacy: LegacyJsonRpcTransportHandler;
  private readonly legacyCards: LegacyRestTransportHandler;

  constructor(host: A2aHost, bridgeUrl: string) {
    this.handler = new MaestroRequestHandler(host, () =>
      agentCard({ rpcUrl: bridgeUrl + A2A_PATH, version: host.version, pieces: host.listPieces().pieces }),
    );
    this.v1 = new JsonRpcTransportHandler(this.handler);
    this.legacy = new LegacyJsonRpcTransportHandler(this.handler);
    this.legacyCards = new LegacyRestTransportHandler(this.handler);
  }

  /**
   * GET /.well-known/agent-card.json: the 1.0 card to a caller that asks for 1.0; otherwise the 0.3 card with the 1.0
   * card's `supportedInterfaces` in it too, as the SDK's own Express layer serves it (`embedV1Interfaces`): a 1.0-only
   * client that fetches the card without a version header finds its endpoint there, a 0.3 one reads `url`.
   */
  async serveCard(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const card = await this.handler.getAgentCard();
    // The SDK translates a card to 0.3 as "the extended card", which is the same card here.
    const body =
      (header(req, A2A_VERSION_HEADER) ?? LEGACY_VERSION) === LEGACY_VERSION
        ? {
            ...(await this.legacyCards.getAuthenticatedExtendedAgentCard(new ServerCallContext({ user: BRIDGE_USER }))),
            supportedInterfaces: (AgentCard.toJSON(card) as { supportedInterfaces?: unknown }).supportedInterfaces,
          }
        : AgentCard.toJSON(card);
    res.setHeader('vary', A2A_VERSION_HEADER);
    sendJson(res, 200, body);
  }

  /** POST /api/local/a2a: one JSON-RPC request; a streaming method answers with an event stream. */
  async serveRpc(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requested = header(req, A2A_VERSION_HEADER);
    const legacy = (requested ?? LEGACY_VERSION) === LEGACY_VERSION;
    const mapError = legacy
      ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
      : JsonRpcTransportHandler.mapToJSONRPCError;
    const contentType = header(req, 'content-type');
    if (contentType && contentType.split(';', 1)[0]?.trim().toLowerCase() !== 'application/json') {
      req.resume();
      const error = new ContentTypeNotSupportedError(
        `Unsupported Content-Type "${contentType}"; expected application/json.`,
      );
      return sendJson(res, 200, { jsonrpc: '2.0', id: null, error: mapError(error) });
    }
    let body: unknown;
    try {
      body = await readJson(req);
    } catch (error) {
      if (!(error instanceof MaestroError)) throw error;
      const tooLarge = error.code === 'payload_too_large';
      const rpcError = tooLarge
        ? { code: -32600, message: error.message }
        : { code: -32700, message: 'Invalid JSON payload.' };
      return sendJson(res, tooLarge ? 413 : 200, { jsonrpc: '2.0', id: null, error: rpcError });
    }
    const id = requestId(body);
    let answer: RpcAnswer;
    try {
      const context = defaultServerCallContextBuilder({
        extensions: Extensions.parseServiceParameter(
          (legacy ? header(req, LEGACY_HTTP_EXTENSION_HEADER) : undefined) ?? header(req, HTTP_EXTENSION_HEADER),
        ),
        user: BRIDGE_USER,
        headers: req.headers,
        requestedVersion: requested,
      });
      validateVersion(context.requestedVersion, await this.handler.getAgentCard(), 'JSONRPC');
      answer = await (legacy ? this.legacy : this.v1).handle(body as Record<string, unknown>, context);
    } catch (error) {
      return sendJson(res, 200, { jsonrpc: '2.0', id, error: mapError(error) });
    }
    if (!isStream(answer)) return sendJson(res, 200, answer);
    await streamRpc(res, answer, id, mapError);
  }

  /** The host is stopping: every watched task's request settles. */
  close(): void {
    this.handler.watcher.stopAll();
  }
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) || undefined;
};

const requestId = (body: unknown): string | number | null => {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

const isStream = (answer: RpcAnswer): answer is AsyncGenerator<RpcResponse, void, undefined> =>
  typeof (answer as AsyncGenerator<RpcResponse>)[Symbol.asyncIterator] === 'function';

/**
 * The events of a streaming method as SSE. An error before the first event is a plain JSON-RPC error (nothing was
 * streamed yet); one after it is an `error` event. A caller that goes away ends the stream (the task runs on).
 */
async function streamRpc(
  res: ServerResponse,
  stream: AsyncGenerator<RpcResponse, void, undefined>,
  id: string | number | null,
  mapError: (error: unknown) => unknown,
): Promise<void> {
  let first: IteratorResult<RpcResponse, void>;
  try {
    first = await stream.next();
  } catch (error) {
    return sendJson(res, 200, { jsonrpc: '2.0', id, error: mapError(error) });
  }
  res.writeHead(200, { ...SSE_HEADERS, 'x-content-type-options': 'nosniff' });
  const gone = () => void stream.return(undefined);
  res.on('close', gone);
  try {
    if (!first.done) res.write(formatSSEEvent(first.value));
    for (let next = first; !next.done && !res.destroyed; ) {
      next = await stream.next();
      if (!next.done && !res.destroyed) res.write(formatSSEEvent(next.value));
    }
  } catch (error) {
    if (!res.destroyed) res.write(formatSSEErrorEvent({ jsonrpc: '2.0', id, error: mapError(error) }));
  } finally {
    res.off('close', gone);
    res.end();
  }
}
