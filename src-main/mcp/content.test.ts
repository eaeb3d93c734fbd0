// What the model gets from an MCP tool's result: text, media described (and kept when the API takes them), resources
// with their URI and blobs decoded when they are text, resource links named; isError as a failure.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TEST_PNG, TEST_WAV } from '../../test-support/mcp-test-tools';
import { MEDIA_MAX_BYTES, toolResult } from './content';

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');
const resultText = (r: Parameters<typeof toolResult>[0]) => toolResult(r).content;

describe('an MCP tool result for the model', () => {
  it('text content joined; isError → a failure written as Error: …; structuredContent when there is nothing else', () => {
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
    expect(resultText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
    expect(resultText({ content: [{ type: 'text', text: 'nope' }], isError: true })).toBe('Error: nope');
    expect(resultText({ content: [{ type: 'text', text: 'Error: nope' }], isError: true })).toBe('Error: nope');
    expect(resultText({ isError: true })).toBe('Error: the tool failed without saying why');
    expect(resultText({ content: [{ type: 'hologram' }] })).toBe('[hologram content not shown]');
  });

  it('text and structured content both reach the model, the JSON after the text; not twice when the text is it or holds all of it', async () => {
    // The counterpart: the MCP SDK's own McpServer and Client, in-process, with a tool that declares an outputSchema.
    const server = new McpServer({ name: 'weather', version: '1.0.0' });
    server.registerTool(
      'forecast',
      { description: 'Forecast', outputSchema: { celsius: z.number(), sky: z.string() } },
      async () => ({
        content: [{ type: 'text', text: 'Mild and sunny.' }],
        structuredContent: { celsius: 21, sky: 'clear' },
      }),
    );
    server.registerTool('mirror', { description: 'Mirror', outputSchema: { n: z.number() } }, async () => ({
      content: [{ type: 'text', text: '{ "n": 1 }' }],
      structuredContent: { n: 1 },
    }));
    // As the reference filesystem server answers read_text_file: the text, and the same text wrapped.
    server.registerTool('read', { description: 'Read', outputSchema: { content: z.string() } }, async () => ({
      content: [{ type: 'text', text: '# notes\n' }],
      structuredContent: { content: '# notes\n' },
    }));
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'maestro-test', version: '1.0.0' });
    await Promise.all([server.connect(a), client.connect(b)]);
    try {
      const both = await client.callTool({ name: 'forecast', arguments: {} });
      expect(resultText(both as Parameters<typeof toolResult>[0])).toBe(
        'Mild and sunny.\n{"celsius":21,"sky":"clear"}',
      );
      const mirrored = await client.callTool({ name: 'mirror', arguments: {} });
      expect(resultText(mirrored as Parameters<typeof toolResult>[0])).toBe('{ "n": 1 }');
      const read = await client.callTool({ name: 'read', arguments: {} });
      expect(resultText(read as Parameters<typeof toolResult>[0])).toBe('# notes\n');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('images and audio: described in the text, kept as media when the chat API takes their type and size', () => {
    const result = toolResult({
      content: [
        { type: 'image', data: TEST_PNG, mimeType: 'image/png' },
        { type: 'audio', data: TEST_WAV, mimeType: 'audio/wav' },
        { type: 'image', data: b64('<svg/>'), mimeType: 'image/svg+xml' },
        { type: 'audio', data: b64('ogg'), mimeType: 'audio/ogg' },
        { type: 'image', data: Buffer.alloc(MEDIA_MAX_BYTES + 1).toString('base64'), mimeType: 'image/jpeg' },
      ],
    });
    expect(result.content.split('\n')).toEqual([
      '[image image/png, 70 B]',
      '[audio audio/wav, 16 B]',
      '[image image/svg+xml, 6 B: a type the model cannot be given]',
      '[audio audio/ogg, 3 B: a type the model cannot be given]',
      '[image image/jpeg, 5 MiB: too large to give the model]',
    ]);
    expect(result.media).toEqual([
      { kind: 'image', mimeType: 'image/png', data: TEST_PNG },
      { kind: 'audio', mimeType: 'audio/wav', data: TEST_WAV },
    ]);
    expect(toolResult({ content: [{ type: 'text', text: 'x' }] }).media).toBeUndefined();
  });

  it('embedded resources: text with its URI; a blob decoded when text by its type or by being UTF-8, else named', () => {
    const text = resultText({
      content: [
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b.json', mimeType: 'application/json', blob: b64('{"b":1}') } },
        { type: 'resource', resource: { uri: 'file:///c.svg', mimeType: 'image/svg+xml', blob: b64('<svg/>') } },
        { type: 'resource', resource: { uri: 'file:///d', blob: b64('plain after all: ü') } },
        { type: 'resource', resource: { uri: 'file:///e.gz', mimeType: 'application/gzip', blob: b64('\x1f\x8b') } },
        { type: 'resource', resource: { uri: 'file:///f', blob: b64(Buffer.from([0, 159, 146, 150])) } },
        { type: 'resource_link', uri: 'file:///g.csv', name: 'g.csv', mimeType: 'text/csv', description: 'All rows' },
        { type: 'resource_link', uri: 'file:///h' },
      ],
    });
    expect(text.split('\n')).toEqual([
      '[resource file:///a.txt (text/plain)]',
      'inside',
      '[resource file:///b.json (application/json)]',
      '{"b":1}',
      '[resource file:///c.svg (image/svg+xml)]',
      '[image image/svg+xml, 6 B: a type the model cannot be given]',
      '[resource file:///d]',
      'plain after all: ü',
      '[resource file:///e.gz (application/gzip)]',
      '[binary, 3 B, not shown]',
      '[resource file:///f]',
      '[binary, 4 B, not shown]',
      '[resource link file:///g.csv (g.csv, text/csv): All rows]',
      '[resource link file:///h]',
    ]);
  });

  it('an image blob resource is media like an image block', () => {
    const result = toolResult({
      content: [{ type: 'resource', resource: { uri: 'x://logo', mimeType: 'image/png', blob: TEST_PNG } }],
    });
    expect(result.content).toBe('[resource x://logo (image/png)]\n[image image/png, 70 B]');
    expect(result.media).toEqual([{ kind: 'image', mimeType: 'image/png', data: TEST_PNG }]);
  });
});
