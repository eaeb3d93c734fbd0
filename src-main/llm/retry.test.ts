// Retry classification, retry-after parsing and backoff.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { classifyFailure, DEFAULT_RETRY, retryAfterMs, retryDelayMs } from './retry';

const calm = { aborted: false, stalled: false };
const status = (code: number, message = 'x', headers: Record<string, string> = {}) =>
  OpenAI.APIError.generate(code, { message }, message, new Headers(headers));

describe('classifyFailure', () => {
  it('retries network errors, 5xx, 429, 408 and broken streams', () => {
    expect(classifyFailure(new OpenAI.APIConnectionError({ message: 'down' }), calm).disposition).toBe('retry');
    for (const code of [500, 502, 503, 429, 408]) expect(classifyFailure(status(code), calm).disposition).toBe('retry');
    expect(classifyFailure(new TypeError('terminated'), calm).disposition).toBe('retry');
    expect(classifyFailure(null, { aborted: false, stalled: true }).disposition).toBe('retry');
  });

  it('P4.23 treats 401, 403, 404 and other 400s as terminal; context-length 400s as overflow', () => {
    for (const code of [400, 401, 403, 404, 422])
      expect(classifyFailure(status(code), calm).disposition).toBe('terminal');
    expect(classifyFailure(status(400, 'maximum context length is 4096 tokens'), calm).disposition).toBe(
      'context_overflow',
    );
    expect(
      classifyFailure(new OpenAI.APIError(undefined, { message: 'prompt is too long' }, undefined, undefined), calm),
    ).toMatchObject({ disposition: 'context_overflow' });
  });

  it('a 5xx whose words say it can never work is terminal; a context overflow at any status but 429 is overflow', () => {
    expect(classifyFailure(status(500, 'tools param requires --jinja flag'), calm).disposition).toBe('terminal');
    expect(classifyFailure(status(500, 'registry.ollama.ai/library/x does not support tools'), calm)).toMatchObject({
      disposition: 'terminal',
      status: 500,
    });
    expect(classifyFailure(status(501, 'Not Implemented'), calm).disposition).toBe('terminal');
    expect(classifyFailure(status(500, 'the request exceeds the available context size'), calm).disposition).toBe(
      'context_overflow',
    );
    expect(classifyFailure(status(429, 'too many tokens per minute'), calm).disposition).toBe('retry');
    for (const code of [502, 503, 504]) expect(classifyFailure(status(code), calm).disposition).toBe('retry');
  });

  it('no server at the address is unreachable; a reset connection is transient', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const viaFetch = new TypeError('fetch failed', { cause: refused });
    const err = new OpenAI.APIConnectionError({ message: 'Connection error.', cause: viaFetch });
    expect(classifyFailure(err, calm)).toEqual({
      disposition: 'unreachable',
      message: 'Connection error. (fetch failed: connect ECONNREFUSED 127.0.0.1:9)',
    });
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere'), { code: 'ENOTFOUND' });
    expect(classifyFailure(new OpenAI.APIConnectionError({ cause: dns }), calm).disposition).toBe('unreachable');
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(classifyFailure(new OpenAI.APIConnectionError({ cause: reset }), calm).disposition).toBe('retry');
    expect(classifyFailure(status(503, 'Loading model'), calm).disposition).toBe('unreachable');
  });

  it('an error frame inside the stream is read from its error field, whatever its shape', () => {
    const frame = (error: unknown) => new OpenAI.APIError(undefined, error as object, undefined, undefined);
    expect(classifyFailure(frame('upstream overloaded'), calm)).toEqual({
      disposition: 'retry',
      message: 'upstream overloaded',
    });
    expect(classifyFailure(frame({ code: 500, message: 'tools param requires --jinja flag' }), calm)).toMatchObject({
      disposition: 'terminal',
      message: 'tools param requires --jinja flag',
    });
  });

  it('reports an abort of the caller as aborted whatever the error', () => {
    expect(classifyFailure(status(500), { aborted: true, stalled: false }).disposition).toBe('aborted');
    expect(classifyFailure(new OpenAI.APIUserAbortError(), calm).disposition).toBe('aborted');
  });

  it('reads retry-after from a 429', () => {
    expect(classifyFailure(status(429, 'slow down', { 'retry-after': '3' }), calm).retryAfterMs).toBe(3000);
  });
});

describe('retry timing', () => {
  it('parses retry-after-ms, retry-after seconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('backs off exponentially with jitter up to the cap, and honours (capped) retry-after', () => {
    const opts = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1000 };
    const f = { disposition: 'retry' as const, message: 'x' };
    expect(retryDelayMs(1, f, opts, () => 1)).toBe(100);
    expect(retryDelayMs(3, f, opts, () => 1)).toBe(400);
    expect(retryDelayMs(3, f, opts, () => 0)).toBe(200);
    expect(retryDelayMs(10, f, opts, () => 1)).toBe(1000);
    expect(retryDelayMs(1, { ...f, retryAfterMs: 5000 }, opts)).toBe(5000);
    expect(retryDelayMs(1, { ...f, retryAfterMs: 120_000 }, opts)).toBe(opts.maxRetryAfterMs);
  });
});
