// LlmClient under faults, through the real openai SDK: retries as LlmCalls of one AgentTurn, terminal errors, abort.
import { describe, expect, it } from 'vitest';
import { API_KEY, failure, kit, USER } from '../../test-support/llm-kit';

describe('LlmClient recoverable errors (P4.21, P9.11)', () => {
  it('P4.21 P9.11 a 500 then success: 2 LlmCalls in one generate, the same request bytes both times', async () => {
    const k = await kit({ script: [{ fault: 'http', status: 500 }, { text: 'recovered' }] });
    const result = await k.client.generate({ messages: USER }, k.hooks);
    expect(result.text).toBe('recovered');
    expect(result.calls.map((c) => [c.attempt, c.outcome])).toEqual([
      [1, 'retryable_error'],
      [2, 'ok'],
    ]);
    expect(result.calls[0]?.status).toBe(500);
    expect(result.calls[0]?.retryInMs).toBeGreaterThan(0);
    expect(k.starts.map((s) => s.attempt)).toEqual([1, 2]);
    expect(k.starts.map((s) => s.callNumber)).toEqual([1, 2]);
    expect(k.ends).toHaveLength(2);
    expect(k.logs).toHaveLength(2);
    const [a, b] = k.server.requests;
    expect(a?.rawBody).toBeTruthy();
    expect(b?.rawBody).toBe(a?.rawBody);
    k.server.expectEmpty();
  });

  it('P9.11 the retried request keeps its bytes even when the caller edits its messages meanwhile', async () => {
    const k = await kit({ script: [{ fault: 'http', status: 503, delayMs: 50 }, { text: 'ok' }] });
    const messages = [...USER];
    const pending = k.client.generate({ messages });
    messages.push({ role: 'user', content: 'an interjection' });
    await pending;
    expect(k.server.requests[1]?.rawBody).toBe(k.server.requests[0]?.rawBody);
    expect(k.server.requests[1]?.rawBody).not.toContain('interjection');
  });

  it('P4.21 a 429 honours retry-after (seconds) instead of the short backoff', async () => {
    const k = await kit({ script: [{ fault: 'rate_limit', retryAfterSeconds: 1 }, { text: 'after the wait' }] });
    const t0 = Date.now();
    const result = await k.client.generate({ messages: USER }, k.hooks);
    const elapsed = Date.now() - t0;
    expect(result.text).toBe('after the wait');
    expect(result.calls[0]).toMatchObject({ status: 429, retryInMs: 1000, outcome: 'retryable_error' });
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(5000);
  });

  it('P4.21 retry-after is capped by maxRetryAfterMs', async () => {
    const k = await kit(
      { script: [{ fault: 'rate_limit', retryAfterSeconds: 3600 }, { text: 'ok' }] },
      { retry: { maxRetryAfterMs: 20 } },
    );
    const result = await k.client.generate({ messages: USER });
    expect(result.calls[0]?.retryInMs).toBe(20);
  });

  it('P4.21 P9.11 a stream cut mid-way is another LlmCall; the partial deltas belong to the void attempt', async () => {
    const k = await kit({ script: [{ fault: 'cut', text: 'partial words before the cut' }, { text: 'whole answer' }] });
    const result = await k.client.generate({ messages: USER }, k.hooks);
    expect(result.text).toBe('whole answer');
    expect(result.calls.map((c) => c.outcome)).toEqual(['retryable_error', 'ok']);
    expect(result.calls[0]?.error).toMatch(/stream broken|terminated|closed/i);
    expect(result.calls[0]?.ttftMs).not.toBeNull();
    const texts = k.deltas.filter((d) => d.type === 'text').map((d) => d.text);
    expect(texts.join('')).toMatch(/^partial words.*whole answer$/);
    expect(k.server.requests[1]?.rawBody).toBe(k.server.requests[0]?.rawBody);
  });

  it('P4.21 a stream ending without finish_reason is retried', async () => {
    const k = await kit({ script: [{ fault: 'no_finish' }, { text: 'finished' }] });
    const result = await k.client.generate({ messages: USER });
    expect(result.text).toBe('finished');
    expect(result.calls[0]?.error).toMatch(/without a finish_reason/);
  });

  it('P9.16 usage is recorded per LlmCall and the AgentTurn usage is their sum', async () => {
    const k = await kit({
      script: [
        { fault: 'no_finish' },
        { text: 'done', usage: { promptTokens: 100, completionTokens: 7, cachedTokens: 60 } },
      ],
    });
    const result = await k.client.generate({ messages: USER }, k.hooks);
    const [first, second] = result.calls;
    expect(first?.usage?.promptTokens).toBeGreaterThan(0);
    expect(second?.usage).toEqual({ promptTokens: 100, completionTokens: 7, cachedPromptTokens: 60 });
    expect(result.usage).toEqual({
      promptTokens: 100 + (first?.usage?.promptTokens ?? 0),
      completionTokens: 7 + (first?.usage?.completionTokens ?? 0),
      cachedPromptTokens: 60 + (first?.usage?.cachedPromptTokens ?? 0),
    });
    // The retry sent the same messages, so the backend's prompt cache covers all of them.
    expect(first?.usage?.cachedPromptTokens).toBe(0);
    expect(k.logs.map((l) => l.split(' ')[0])).toEqual(['prompt_cache', 'prompt_cache']);
  });

  it('P4.21 a dropped connection (network error) is retried', async () => {
    const k = await kit({ script: [{ fault: 'reset' }, { text: 'reconnected' }] });
    const result = await k.client.generate({ messages: USER });
    expect(result.text).toBe('reconnected');
    expect(result.calls).toHaveLength(2);
  });

  it('P4.21 a stream silent beyond the idle timeout is retried', async () => {
    const k = await kit({ script: [{ fault: 'hang' }, { text: 'awake' }] }, { idleTimeoutMs: 200 });
    const result = await k.client.generate({ messages: USER });
    expect(result.text).toBe('awake');
    expect(result.calls[0]?.error).toMatch(/stalled/);
  });

  it('P4.22 retries exhausted: LlmError retries_exhausted after maxRetries + 1 LlmCalls', async () => {
    const k = await kit(
      { script: [{ fault: 'http', status: 500 }, { fault: 'http', status: 502 }, { fault: 'cut' }] },
      { retry: { maxRetries: 2 } },
    );
    const err = await failure(k.client.generate({ messages: USER }, k.hooks));
    expect(err.kind).toBe('retries_exhausted');
    expect(err.retryable).toBe(true);
    expect(err.name).toBe('LlmError');
    expect(err.calls).toHaveLength(3);
    expect(err.calls.at(-1)?.retryInMs).toBeUndefined();
    expect(k.ends).toHaveLength(3);
    expect(k.server.requests).toHaveLength(3);
    k.server.expectEmpty();
  });
});

describe('LlmClient terminal errors (P4.23)', () => {
  for (const status of [401, 403, 404, 400, 422]) {
    it(`P4.23 HTTP ${status} is terminal at once: 1 LlmCall`, async () => {
      const k = await kit({ script: [{ fault: 'http', status }] });
      const err = await failure(k.client.generate({ messages: USER }, k.hooks));
      expect(err.kind).toBe('terminal');
      expect(err.status).toBe(status);
      expect(err.retryable).toBe(false);
      expect(err.calls.map((c) => c.outcome)).toEqual(['terminal_error']);
      expect(k.server.requests).toHaveLength(1);
    });
  }

  it('P4.23 a wrong API key (the server checks it) is terminal', async () => {
    const k = await kit({ script: [] }, { profile: { apiKey: 'sk-wrong' } });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err).toMatchObject({ kind: 'terminal', status: 401 });
  });

  it('a 400 saying the context length is exceeded is context_overflow', async () => {
    const k = await kit({
      script: [
        {
          fault: 'http',
          status: 400,
          code: 'context_length_exceeded',
          message:
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
        },
      ],
    });
    const err = await failure(k.client.generate({ messages: USER }));
    expect(err.kind).toBe('context_overflow');
    expect(err.retryable).toBe(false);
    expect(err.calls).toHaveLength(1);
  });

  it('P4.19 the client-side token check refuses before any request reaches the server', async () => {
    const k = await kit({ script: [] }, { profile: { contextWindow: 2000 }, outputReserveTokens: 500 });
    const messages = [...USER, { role: 'user' as const, content: 'word '.repeat(2000) }];
    const err = await failure(k.client.generate({ messages }, k.hooks));
    expect(err.kind).toBe('context_overflow');
    expect(err.contextWindow).toBe(2000);
    expect(err.estimatedTokens).toBeGreaterThan(2000);
    expect(err.calls).toEqual([]);
    expect(k.server.requests).toHaveLength(0);
    expect(k.starts).toHaveLength(0);
    expect(k.client.llmCallCount).toBe(0);
  });
});

describe('LlmClient abort', () => {
  it('an abort mid-stream ends the LlmCall promptly with kind aborted', async () => {
    const k = await kit({ script: [{ fault: 'hang', text: 'first words' }] });
    const controller = new AbortController();
    const t0 = Date.now();
    const pending = k.client.generate(
      { messages: USER, signal: controller.signal },
      { ...k.hooks, onDelta: () => controller.abort() },
    );
    const err = await failure(pending);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(err.kind).toBe('aborted');
    expect(err.calls.map((c) => c.outcome)).toEqual(['aborted']);
    expect(k.ends.map((c) => c.outcome)).toEqual(['aborted']);
  });

  it('an abort during the retry wait ends at once without another LlmCall', async () => {
    const k = await kit({ script: [{ fault: 'rate_limit', retryAfterSeconds: 30 }] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const t0 = Date.now();
    const err = await failure(k.client.generate({ messages: USER, signal: controller.signal }));
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(err.kind).toBe('aborted');
    expect(k.server.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const k = await kit({ script: [] });
    const err = await failure(k.client.generate({ messages: USER, signal: AbortSignal.abort() }));
    expect(err.kind).toBe('aborted');
    expect(k.server.requests).toHaveLength(0);
  });
});

describe('the API key', () => {
  it('is sent as a Bearer header and appears in no error message, LlmCall record or log line', async () => {
    const k = await kit(
      {
        script: [
          { fault: 'http', status: 500, message: `upstream failed for key ${API_KEY}` },
          { fault: 'http', status: 401, message: `Incorrect API key provided: ${API_KEY}.` },
        ],
      },
      { retry: { maxRetries: 3 } },
    );
    const err = await failure(k.client.generate({ messages: USER }, k.hooks));
    expect(k.server.requests.every((r) => r.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
    expect(err.kind).toBe('terminal');
    const seen = [err.message, String(err.stack), JSON.stringify(err.calls), JSON.stringify(k.ends), ...k.logs].join(
      '\n',
    );
    expect(seen).not.toContain(API_KEY);
    expect(err.message).toContain('[redacted]');
  });
});
