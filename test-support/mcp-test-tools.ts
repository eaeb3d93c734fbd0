// Test support: the MCP server both test transports serve (stdio: mcp-stdio-server.ts; HTTP: mcp-http-server.ts),
// built on the SDK's own Server class, with tools whose JSON schemas and descriptions tests compare verbatim.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** The tools as listed, exactly: tests expect these schemas and descriptions in the model's `tools`. */
export const TEST_MCP_TOOLS = [
  {
    name: 'echo',
    description: 'Echoes the text back. Used to see a call go through.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'What to echo', minLength: 1 } },
      required: ['text'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'fail',
    description: 'Always answers with an error result.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'sleep',
    description: 'Waits the given milliseconds, then answers.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'remember',
    description: 'Keeps a note on the server: it changes the server, so it says nothing of being read-only.',
    inputSchema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
  },
  {
    name: 'whoami',
    description: 'Says what credential reached the server (the token itself, to test that it never reaches the model).',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
];

/** A server over the test tools; `credential` is what `whoami` answers (the token the server was given). */
export function testMcpServer(credential: () => string | undefined): Server {
  const server = new Server({ name: 'maestro-test-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });
  const notes: string[] = [];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TEST_MCP_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], isError });
    switch (request.params.name) {
      case 'echo':
        return text(`echo: ${String(args.text)}`);
      case 'remember':
        notes.push(String(args.note));
        return text(`remembered ${notes.length} notes`);
      case 'add':
        return text(String(Number(args.a) + Number(args.b)));
      case 'fail':
        return text('boom', true);
      case 'sleep':
        await new Promise((resolve) => setTimeout(resolve, Number(args.ms)));
        return text(`slept ${Number(args.ms)} ms`);
      case 'whoami':
        return text(`credential: ${credential() ?? '(none)'}`);
      default:
        return text(`unknown tool ${request.params.name}`, true);
    }
  });
  return server;
}
