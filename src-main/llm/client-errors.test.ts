// LlmClient failures through the real openai SDK: the server's words from real error bodies, hints, failure classes.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { API_KEY, failure, kit, USER } from '../../test-support/llm-kit';
import type { RawReply } from '../../test-support/scripted-llm-server';

const json = (status: number, body: unknown): RawReply => ({ raw: { status, body: JSON.stringify(body) } });

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('LlmClient: the server says why, in its own words', () => {
  it('a flat {message} body (vLLM ErrorResponse, vllm/entrypoints/openai/protocol.py) is shown, not "no body"', async () => {
    const k = await kit({
      script: [json(404, { object: 'error', message: 'The model `scripted` does not exist.', code: 404 })],
    });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err).toMatchObject({ kind: 'terminal', status: 404 });
    expect(err.message).toContain('The model `scripted` does not exist.');
    expect(err.message).not.toContain('no body');
    expect(err.hint).toBe('the server does not know the model "scripted": check the model name of profile test.');
    expect(err.message).toContain(err.hint);
  });

  it("Gemini's error array (ComfyUI-NewBie-LLM-Formatter#3) is read", async () => {
    const k = await kit({
      script: [
        json(400, [
          {
            error: {
              code: 400,
              message: 'Invalid JSON payload received. Unknown name "reasoning": Cannot find field.',
              status: 'INVALID_ARGUMENT',
            },
          },
        ]),
      ],
    });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.message).toBe(
      'LLM request refused: 400 Invalid JSON payload received. Unknown name "reasoning": Cannot find field.',
    );
  });

  it('an HTML 502 page from a proxy is retried, and its text (not its markup) is what the user reads', async () => {
    const page =
      '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>';
    const step: RawReply = { raw: { status: 502, headers: { 'content-type': 'text/html' }, body: page } };
    const k = await kit({ script: [step, step] });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.kind).toBe('retries_exhausted');
    expect(err.message).toBe('LLM failed after 2 LlmCalls: 502 502 Bad Gateway nginx');
  });

  it('an empty 503 body says the status in words', async () => {
    const k = await kit({ script: [{ raw: { status: 503, body: '' } }, { raw: { status: 503, body: '' } }] });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.message).toContain('HTTP 503 Service Unavailable (the response had no message)');
    expect(err.calls.map((c) => c.status)).toEqual([503, 503]);
  });
});

describe('LlmClient: a permanent error fails at once, with the fix', () => {
  it('llama.cpp without --jinja (500 "tools param requires --jinja flag", LLMKube#162): 1 request, hint', async () => {
    // The body llama.cpp's format_error_response writes for a server_error.
    const k = await kit({
      script: [json(500, { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } })],
    });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err).toMatchObject({ kind: 'terminal', status: 500, retryable: false });
    expect(err.calls.map((c) => c.outcome)).toEqual(['terminal_error']);
    expect(k.server.requests).toHaveLength(1);
    expect(err.message).toBe(
      'LLM request refused: 500 tools param requires --jinja flag — llama.cpp takes tools only with its --jinja flag: start llama-server again with --jinja.',
    );
  });

  it('Ollama "does not support tools" (FoundationAgents/OpenManus#220) names the model and the profile', async () => {
    const k = await kit({
      script: [
        json(400, {
          error: {
            message: 'registry.ollama.ai/library/scripted does not support tools',
            type: 'api_error',
            param: null,
            code: null,
          },
        }),
      ],
    });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.kind).toBe('terminal');
    expect(err.hint).toBe('the model "scripted" cannot call tools: choose a model that can in profile test.');
  });

  it('a context overflow reported as 500 is context_overflow at once, with the context hint', async () => {
    const k = await kit({
      script: [
        json(500, {
          error: { code: 500, message: 'the request exceeds the available context size, try increasing it' },
        }),
      ],
    });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.kind).toBe('context_overflow');
    expect(k.server.requests).toHaveLength(1);
    expect(err.hint).toMatch(/does not fit the model's context window.*profile test/);
  });

  it('a refused key says to check the API key of the profile, and the key never appears', async () => {
    const k = await kit({
      script: [json(401, { error: { message: `Incorrect API key provided: ${API_KEY}`, code: 'invalid_api_key' } })],
    });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.kind).toBe('terminal');
    expect(err.message).toContain('check the API key of profile test');
    expect(`${err.message}${err.hint}${JSON.stringify(err.calls)}`).not.toContain(API_KEY);
  });

  it('a stream that keeps ending without finish_reason says the context is probably too small', async () => {
    const k = await kit({ script: [{ fault: 'no_finish' }, { fault: 'no_finish' }] });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.kind).toBe('retries_exhausted');
    expect(err.message).toMatch(/without a finish_reason — .*context window is too small/);
  });
});

describe('LlmClient: transient failures and outages', () => {
  it('by default an AgentTurn makes 2 LlmCalls against a failing server (the job retries the rest)', async () => {
    const k = await kit({ script: [{ fault: 'http', status: 500 }, { fault: 'reset' }] });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.kind).toBe('retries_exhausted');
    expect(k.server.requests).toHaveLength(2);
  });

  it('llama.cpp 503 "Loading model" is an outage: unreachable, retried', async () => {
    const loading = json(503, { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } });
    const k = await kit({ script: [loading, { text: 'loaded' }] });
    const result = await k.client.generate({ messages: USER });
    expect(result.text).toBe('loaded');
    expect(result.calls.map((c) => c.outcome)).toEqual(['retryable_error', 'ok']);
  });

  it('a refused connection is unreachable: retryable, with how long the outage has lasted', async () => {
    const port = await closedPort();
    const k = await kit(
      { script: [] },
      { profile: { baseURL: `http://127.0.0.1:${port}/v1` }, retry: { baseDelayMs: 30 } },
    );
    const first = await failure(k.client.generate({ messages: USER }));
    expect(first).toMatchObject({ kind: 'unreachable', retryable: true });
    expect(first.message).toContain(`LLM server unreachable at http://127.0.0.1:${port}/v1`);
    expect(first.message).toMatch(/ECONNREFUSED/);
    expect(first.calls.map((c) => c.outcome)).toEqual(['retryable_error', 'retryable_error']);
    expect(first.outageMs).toBeGreaterThanOrEqual(25);
    // The outage goes on across generations: the second one reports a longer outage.
    const second = await failure(k.client.generate({ messages: USER }));
    expect(second.outageMs).toBeGreaterThan(first.outageMs ?? 0);
  });
});
