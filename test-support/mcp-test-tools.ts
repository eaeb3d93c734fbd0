// Test support: the MCP server both test transports serve (stdio: mcp-stdio-server.ts; HTTP: mcp-http-server.ts),
// built on the SDK's own Server class, with tools whose JSON schemas and descriptions tests compare verbatim: calls,
// errors, slow calls that notice their cancellation, progress notifications, media and resources, and a crash.
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
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'fail',
    description: 'Always answers with an error result.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'sleep',
    description: 'Waits the given milliseconds, then answers.',
    inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'remember',
    description: 'Keeps a note on the server: it changes the server, so it says nothing of being read-only.',
    inputSchema: { type: 'object', properties: { note: { type: 'string' } }, required: ['note'] },
  },
  {
    name: 'steps',
    description: 'Sends `count` progress notifications `ms` apart (when the call asked for progress), then answers.',
    inputSchema: {
      type: 'object',
      properties: { count: { type: 'integer' }, ms: { type: 'integer' } },
      required: ['count', 'ms'],
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'media',
    description: 'Answers with an image, an audio clip, text and binary blob resources and a resource link.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'crash',
    description: 'Ends the server process in the middle of the call (stdio only).',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: 'whoami',
    description: 'Says what credential reached the server (the token itself, to test that it never reaches the model).',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

/** A 1×1 PNG, and the first bytes of a WAV file: media the tests can recognise in a request. */
export const TEST_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
export const TEST_WAV = Buffer.from('RIFF\u0024\u0000\u0000\u0000WAVEfmt ').toString('base64');

export interface TestServerHooks {
  /** A call's `notifications/cancelled` reached its handler (the SDK aborted its signal). */
  onCancelled?(tool: string, reason: unknown): void;
  /** What `crash` does: the stdio server exits; elsewhere it is refused. */
  crash?(): void;
}

/** A server over the test tools; `credential` is what `whoami` answers (the token the server was given). */
export function testMcpServer(credential: () => string | undefined, hooks: TestServerHooks = {}): Server {
  const server = new Server({ name: 'maestro-test-mcp', version: '1.0.0' }, { capabilities: { tools: {} } });
  const notes: string[] = [];
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TEST_MCP_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    extra.signal.addEventListener('abort', () => hooks.onCancelled?.(request.params.name, extra.signal.reason), {
      once: true,
    });
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
      case 'steps': {
        const token = request.params._meta?.progressToken;
        const count = Number(args.count);
        for (let i = 1; i <= count; i++) {
          await new Promise((resolve) => setTimeout(resolve, Number(args.ms)));
          if (token !== undefined) {
            const params = { progressToken: token, progress: i, total: count, message: `step ${i} of ${count}` };
            await server.notification(
              { method: 'notifications/progress', params },
              { relatedRequestId: extra.requestId },
            );
          }
        }
        return text(`${count} steps done${token === undefined ? ' (no progress asked for)' : ''}`);
      }
      case 'media':
        return {
          content: [
            { type: 'text' as const, text: 'Here it is.' },
            { type: 'image' as const, data: TEST_PNG, mimeType: 'image/png' },
            { type: 'audio' as const, data: TEST_WAV, mimeType: 'audio/wav' },
            {
              type: 'resource' as const,
              resource: {
                uri: 'test://notes.txt',
                mimeType: 'text/plain',
                blob: Buffer.from('blob text').toString('base64'),
              },
            },
            {
              type: 'resource' as const,
              resource: { uri: 'test://untyped', blob: Buffer.from('untyped but utf-8: é').toString('base64') },
            },
            {
              type: 'resource' as const,
              resource: {
                uri: 'test://data.bin',
                mimeType: 'application/octet-stream',
                blob: Buffer.from([0, 1, 2, 255]).toString('base64'),
              },
            },
            {
              type: 'resource_link' as const,
              uri: 'test://big.csv',
              name: 'big.csv',
              mimeType: 'text/csv',
              description: 'All rows',
            },
          ],
        };
      case 'crash':
        if (!hooks.crash) return text('crash is only for the stdio server', true);
        hooks.crash();
        return text('still here?');
      case 'whoami':
        return text(`credential: ${credential() ?? '(none)'}`);
      default:
        return text(`unknown tool ${request.params.name}`, true);
    }
  });
  return server;
}
