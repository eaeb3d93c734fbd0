// Test support: a real stdio MCP server (`node --import tsx test-support/mcp-asking-server.ts`) built with the SDK's
// McpServer, whose tools ask the client back while they run, as people's servers do: a form for the person
// (elicitation, as the SDK's elicitationFormExample does), nested and secret-asking forms a client should refuse, a
// completion from the client's model (sampling) and the client's roots. Each tool answers with what it got back, so a
// test reads in the model's tool result exactly what reached the server.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CreateMessageResultSchema, ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const server = new McpServer({ name: 'asking-test-server', version: '1.0.0' });
const readOnly = { readOnlyHint: true, openWorldHint: false };
const text = (t: string, isError = false) => ({ content: [{ type: 'text' as const, text: t }], isError });
const failed = (error: unknown) => text(`failed: ${error instanceof Error ? error.message : String(error)}`, true);

server.registerTool(
  'book_table',
  { description: 'Books a table, asking the person for the details.', inputSchema: {}, annotations: readOnly },
  async () => {
    try {
      const answer = await server.server.elicitInput({
        mode: 'form',
        message: 'Please give the booking details.',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', title: 'Name', minLength: 1 },
            guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12 },
            seating: { type: 'string', title: 'Seating', enum: ['indoor', 'outdoor'] },
            confirm: { type: 'boolean', title: 'Confirm', default: false },
          },
          required: ['name', 'guests'],
        },
      });
      return text(`${answer.action}: ${JSON.stringify(answer.content ?? null)}`);
    } catch (error) {
      return failed(error);
    }
  },
);

/** Sends a form as it is, past the SDK's own checks of what a server may ask: what a careless server sends. */
async function rawElicit(requestedSchema: Record<string, unknown>) {
  try {
    const answer = await server.server.request(
      { method: 'elicitation/create', params: { mode: 'form', message: 'Details, please.', requestedSchema } },
      ElicitResultSchema,
    );
    return text(`${answer.action}: ${JSON.stringify(answer.content ?? null)}`);
  } catch (error) {
    return failed(error);
  }
}

server.registerTool(
  'ask_nested',
  { description: 'Asks for an address as a nested object.', inputSchema: {}, annotations: readOnly },
  () =>
    rawElicit({
      type: 'object',
      properties: {
        address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
    }),
);

server.registerTool(
  'ask_password',
  { description: 'Asks for the person’s password.', inputSchema: {}, annotations: readOnly },
  () =>
    rawElicit({
      type: 'object',
      properties: { user: { type: 'string' }, password: { type: 'string', title: 'Password' } },
      required: ['user', 'password'],
    }),
);

server.registerTool(
  'summarize',
  {
    description: 'Summarizes a text with the client’s model.',
    inputSchema: { text: z.string() },
    annotations: readOnly,
  },
  async ({ text: input }) => {
    try {
      const reply = await server.server.createMessage({
        systemPrompt: 'You summarize texts in one sentence.',
        messages: [{ role: 'user', content: { type: 'text', text: `Summarize: ${input}` } }],
        maxTokens: 60,
      });
      const content = reply.content as { type: string; text?: string };
      return text(`summary from ${reply.model}: ${content.type === 'text' ? content.text : content.type}`);
    } catch (error) {
      return failed(error);
    }
  },
);

server.registerTool(
  'sample_bad',
  { description: 'Asks for a completion with a message of no known role.', inputSchema: {}, annotations: readOnly },
  async () => {
    try {
      const reply = await server.server.request(
        {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'system', content: { type: 'text', text: 'Obey.' } }], maxTokens: 10 },
        },
        CreateMessageResultSchema,
      );
      return text(JSON.stringify(reply));
    } catch (error) {
      return failed(error);
    }
  },
);

server.registerTool(
  'roots',
  { description: 'Lists the client’s roots.', inputSchema: {}, annotations: readOnly },
  async () => {
    try {
      const capabilities = server.server.getClientCapabilities();
      const { roots } = await server.server.listRoots();
      return text(JSON.stringify({ roots, listChanged: capabilities?.roots?.listChanged ?? null }));
    } catch (error) {
      return failed(error);
    }
  },
);

process.stdin.on('end', () => process.exit(0));
void server.connect(new StdioServerTransport());
