// The scripted LLM server, driven through the real `openai` SDK's streaming path.
import OpenAI from 'openai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ScriptedLlmServer,
  type ScriptedLlmServerOptions,
  type ScriptedStep,
  type SentChunk,
  startScriptedLlmServer,
} from './scripted-llm-server';
import { ScriptedLlmServerHost } from './scripted-llm-server-host';

const KEY = 'sk-scripted-test-key';
const servers: ScriptedLlmServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

async function serve(options: ScriptedLlmServerOptions = {}) {
  const server = await startScriptedLlmServer({ apiKey: KEY, ...options });
  servers.push(server);
  const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
  return { server, sdk };
}

async function collect(sdk: OpenAI, messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'hi' }]) {
  const stream = await sdk.chat.completions.create({
    model: 'm',
    messages,
    stream: true,
    stream_options: { include_usage: true },
  });
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** Streams one reply, timing (from the request) when its headers and its first chunk arrive. */
async function timed(sdk: OpenAI) {
  const start = performance.now();
  const stream = await sdk.chat.completions.create({
    model: 'm',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  const headersMs = performance.now() - start;
  let ttftMs = Number.NaN;
  const chunks: ChatCompletionChunk[] = [];
  for await (const chunk of stream) {
    if (chunks.length === 0) ttftMs = performance.now() - start;
    chunks.push(chunk);
  }
  return { headersMs, ttftMs, chunks: chunks.map(({ created: _, ...rest }) => rest) };
}

const TIMED_SCRIPT: ScriptedStep[] = [
  { text: 'Hello there, world', toolCalls: [{ name: 'read_file', arguments: { path: 'a.txt' } }] },
];

describe('scripted LLM server', () => {
  it('streams text over several chunks, a finish_reason, usage and [DONE]', async () => {
    const { server, sdk } = await serve({ script: [{ text: 'Hello there, world' }] });
    const chunks = await collect(sdk);
    const contents = chunks.map((c) => c.choices[0]?.delta.content).filter((c) => c);
    expect(contents.length).toBeGreaterThan(1);
    expect(contents.join('')).toBe('Hello there, world');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('stop');
    const usage = chunks.at(-1)?.usage;
    expect(usage?.prompt_tokens).toBeGreaterThan(0);
    expect(usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    server.expectEmpty();
  });

  it('streams the text in as many chunks as the step asks for (textChunks)', async () => {
    const text = 'abcdefgh'.repeat(250);
    const { sdk } = await serve({ script: [{ text, textChunks: 500 }] });
    const contents = (await collect(sdk)).map((c) => c.choices[0]?.delta.content).filter((c) => c);
    expect(contents).toHaveLength(500);
    expect(contents.join('')).toBe(text);
  });

  it('reports each chunk of a reply as it is written (onChunk): its delta and a wall-clock time before the client has it', async () => {
    const sent: SentChunk[] = [];
    const text = 'one two three four five ';
    const { sdk } = await serve({
      script: [{ text, textChunks: 4, chunkDelayMs: 20 }],
      onChunk: (chunk) => sent.push(chunk),
    });
    const stream = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const received: { content: string; at: number }[] = [];
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) received.push({ content, at: performance.timeOrigin + performance.now() });
    }
    const contents = sent.filter((c) => typeof c.delta.content === 'string');
    expect(contents.map((c) => c.delta.content)).toEqual(received.map((r) => r.content));
    expect(contents.map((c) => c.request)).toEqual([0, 0, 0, 0]);
    contents.forEach((c, i) => {
      expect(c.sentAt).toBeLessThanOrEqual(received[i]?.at as number);
      if (i > 0) expect(c.sentAt - (contents[i - 1] as SentChunk).sentAt).toBeGreaterThanOrEqual(15);
    });
    // Then the finish_reason chunk, which has no content.
    expect(sent.length).toBeGreaterThan(contents.length);
  });

  it('streams tool calls with split arguments, id and name in the first chunk only, and reasoning', async () => {
    const { sdk } = await serve({
      script: [
        {
          reasoning: 'I should look',
          toolCalls: [
            { name: 'read_file', arguments: { path: 'a/b.txt' } },
            { name: 'list', arguments: '{"dir":"."}', id: 'call_fixed' },
          ],
        },
      ],
    });
    const chunks = await collect(sdk);
    const reasoning = chunks
      .map((c) => (c.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '')
      .join('');
    expect(reasoning).toBe('I should look');
    const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const first = deltas.filter((d) => d.index === 0);
    expect(first.length).toBeGreaterThan(1);
    expect(first[0]?.id).toBeTruthy();
    expect(first[0]?.function?.name).toBe('read_file');
    expect(first.slice(1).every((d) => d.id === undefined && d.function?.name === undefined)).toBe(true);
    expect(JSON.parse(first.map((d) => d.function?.arguments).join(''))).toEqual({ path: 'a/b.txt' });
    expect(deltas.find((d) => d.index === 1)?.id).toBe('call_fixed');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('records raw bodies and headers, and reports the shared message prefix as cached tokens', async () => {
    const { server, sdk } = await serve({ script: [{ text: 'a' }, { text: 'b' }] });
    const long = 'x'.repeat(400);
    await collect(sdk, [{ role: 'system', content: long }]);
    const chunks = await collect(sdk, [
      { role: 'system', content: long },
      { role: 'user', content: 'next' },
    ]);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[1]?.rawBody).toContain('"content":"next"');
    expect(server.requests[1]?.body?.stream).toBe(true);
    const usage = chunks.at(-1)?.usage;
    expect(usage?.prompt_tokens_details?.cached_tokens).toBeGreaterThanOrEqual(100);
    expect(usage?.prompt_tokens_details?.cached_tokens).toBeLessThanOrEqual(usage?.prompt_tokens ?? 0);
  });

  it('plays HTTP faults and rate limits with retry-after', async () => {
    const { sdk } = await serve({
      script: [
        { fault: 'http', status: 500 },
        { fault: 'rate_limit', retryAfterSeconds: 7 },
        { fault: 'http', status: 404 },
      ],
    });
    await expect(collect(sdk)).rejects.toMatchObject({ status: 500 });
    const limited = await collect(sdk).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((limited as InstanceType<typeof OpenAI.RateLimitError>).headers.get('retry-after')).toBe('7');
    await expect(collect(sdk)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('replays a raw reply as sent: SSE comments and frames in order, or a whole non-JSON error body', async () => {
    const frame = { id: 'x', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [] };
    const delta = (content: string, finish: string | null = null) => ({
      ...frame,
      choices: [{ index: 0, delta: { content }, finish_reason: finish }],
    });
    const { sdk } = await serve({
      script: [
        { raw: { sse: [': OPENROUTER PROCESSING', delta('a'), delta('b', 'stop'), 'data: [DONE]'] } },
        { raw: { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>Bad gateway</h1>' } },
      ],
    });
    const chunks = await collect(sdk);
    expect(chunks.map((c) => c.choices[0]?.delta?.content)).toEqual(['a', 'b']);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    await expect(collect(sdk)).rejects.toMatchObject({ status: 500 });
  });

  it('drops a connection, cuts a stream mid-way, and ends one without a finish_reason', async () => {
    const { sdk } = await serve({ script: [{ fault: 'reset' }, { fault: 'cut' }, { fault: 'no_finish' }] });
    await expect(collect(sdk)).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
    await expect(collect(sdk)).rejects.toThrow();
    const chunks = await collect(sdk);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.every((c) => !c.choices[0]?.finish_reason)).toBe(true);
  });

  it('answers a wrong key with 401 and an unscripted request with 500, which expectEmpty reports', async () => {
    const { server, sdk } = await serve({ script: [(req) => ({ text: `you sent ${req.body?.messages?.length}` })] });
    const wrong = new OpenAI({ baseURL: server.baseURL, apiKey: 'wrong', maxRetries: 0 });
    await expect(collect(wrong)).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const chunks = await collect(sdk);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('you sent 1');
    expect(() => server.expectEmpty()).not.toThrow();
    await expect(collect(sdk)).rejects.toThrow(/no scripted step is left/);
    expect(() => server.expectEmpty()).toThrow(/no scripted step left/);
  });

  it('waits ttftMs between the headers and the first chunk of a reply, and streams the same chunks', async () => {
    const plain = await serve({ script: TIMED_SCRIPT });
    const slow = await serve({ script: TIMED_SCRIPT, ttftMs: 20 });
    const fast = await timed(plain.sdk);
    const paced = await timed(slow.sdk);
    expect(paced.ttftMs).toBeGreaterThanOrEqual(20);
    expect(paced.ttftMs - paced.headersMs).toBeGreaterThanOrEqual(10);
    expect(paced.chunks).toEqual(fast.chunks);
    expect(slow.server.requests.map((r) => r.rawBody)).toEqual(plain.server.requests.map((r) => r.rawBody));
  });

  it('serves from a child process with the time to first token, and reports each request and when it arrived', async () => {
    const host = await ScriptedLlmServerHost.start();
    try {
      const server = await host.serve([...TIMED_SCRIPT, ...TIMED_SCRIPT], { ttftMs: 20 });
      const sdk = new OpenAI({ baseURL: server.baseURL, apiKey: KEY, maxRetries: 0 });
      const before = Date.now();
      const replies = [await timed(sdk), await timed(sdk)];
      const after = Date.now();
      for (const reply of replies) expect(reply.ttftMs).toBeGreaterThanOrEqual(20);
      const record = await server.close();
      expect(record.problems).toEqual([]);
      expect(record.rawBodies.map((b) => JSON.parse(b).messages)).toEqual([
        [{ role: 'user', content: 'hi' }],
        [{ role: 'user', content: 'hi' }],
      ]);
      const [first, second] = record.arrivals as [number, number];
      expect(first).toBeGreaterThanOrEqual(before - 1);
      expect(second - first).toBeGreaterThanOrEqual(20);
      expect(second).toBeLessThanOrEqual(after + 1);
    } finally {
      await host.stop();
    }
  });
});
