// Test support: a real streamable HTTP MCP server on 127.0.0.1 (the SDK's transport, stateless). With `token` set,
// a request without `Authorization: Bearer <token>` gets a 401 before it reaches the MCP server. Every JSON-RPC
// method it is sent is kept, in order (notifications too: a call's `notifications/cancelled`).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { testMcpServer } from './mcp-test-tools';

export interface McpHttpServer {
  /** The MCP endpoint, e.g. http://127.0.0.1:PORT/mcp. */
  readonly url: string;
  /** The Authorization header of every request, in order (undefined when absent). */
  readonly authorizations: (string | undefined)[];
  /** How many requests got a 401. */
  readonly refused: number;
  /** The `method` of every JSON-RPC message posted to it, in order. */
  readonly methods: string[];
  close(): Promise<void>;
}

/**
 * Answers one MCP request with the test tools, statelessly: a server and a transport per request, as the SDK's
 * stateless example does. The tools see the request's Authorization header (`whoami` echoes it).
 */
export function serveStateless(req: http.IncomingMessage, res: http.ServerResponse, body: unknown): void {
  const mcp = testMcpServer(() => req.headers.authorization);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void mcp.close();
  });
  mcp
    .connect(transport)
    .then(() => transport.handleRequest(req, res, body))
    .catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
}

export async function startMcpHttpServer(options: { token?: string } = {}): Promise<McpHttpServer> {
  const authorizations: (string | undefined)[] = [];
  let refused = 0;
  const methods: string[] = [];
  const server = http.createServer(async (req, res) => {
    const authorization = req.headers.authorization;
    authorizations.push(authorization);
    if (options.token !== undefined && authorization !== `Bearer ${options.token}`) {
      refused++;
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer' });
      res.end(JSON.stringify({ error: 'unauthorized' }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body: unknown = text ? JSON.parse(text) : undefined;
    for (const m of Array.isArray(body) ? body : [body]) {
      if (m && typeof m === 'object' && 'method' in m) methods.push(String(m.method));
    }
    serveStateless(req, res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    authorizations,
    methods,
    get refused() {
      return refused;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
