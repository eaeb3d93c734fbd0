// The limits of one LlmCall: the meter's reading of SSE events as bytes arrive, and LlmClient ending a call at each
// limit through the real SDK — one LlmCall, never retried, the error naming the limit, its value and where to change it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLY_LIMIT_DEFAULTS, SaveProfileInput } from '../../src-shared/contract/profiles';
import { kit, USER } from '../../test-support/llm-kit';
import { tempDir } from '../../test-support/temp-maestro';
import { LlmError } from './errors';
import { ReplyMeter } from './metered-fetch';
import { ProfileStore, SECRET_KEY_FILE } from './profile-store';
import { ProfileRegistry } from './profiles';
import { ReplyLimitError, replyLimitsOf } from './reply-limits';
import { fileSecretBox } from './secret-box';

const bytes = (text: string) => new TextEncoder().encode(text);
const limits = (over: Partial<ReturnType<typeof replyLimitsOf>> = {}) => replyLimitsOf(over);

describe('ReplyMeter', () => {
  it('counts each SSE event on its own, ending at a blank line ("\\n\\n" or "\\r\\n\\r\\n"), even split across reads', () => {
    // Event cap = 1024 + 64 KiB; 200 events of 1 KiB each are 200 KiB in all, none over the cap.
    const meter = new ReplyMeter(limits({ maxToolArgumentBytes: 1024 }));
    const event = `data: ${'x'.repeat(1000)}\n\n`;
    const crlf = `data: ${'y'.repeat(1000)}\r\n\r\n`;
    const stream = bytes((event + crlf).repeat(100));
    for (let i = 0; i < stream.length; i += 777) meter.count(stream.subarray(i, i + 777));
    expect(meter.breach).toBeUndefined();
  });

  it('a "\\r" at the end of one read and "\\n\\r\\n" at the start of the next still end the event', () => {
    const meter = new ReplyMeter(limits({ maxToolArgumentBytes: 1024 }));
    const half = 40 * 1024;
    for (let i = 0; i < 3; i++) {
      meter.count(bytes(`data: ${'z'.repeat(half)}\r`));
      meter.count(bytes('\n\r\n'));
    }
    expect(meter.breach).toBeUndefined();
  });

  it('one event growing past its cap throws on the read that passes it, naming maxToolArgumentBytes', () => {
    const breaches: unknown[] = [];
    const meter = new ReplyMeter(limits({ maxToolArgumentBytes: 1024 }), (b) => breaches.push(b));
    meter.count(bytes('data: {"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"'));
    const read = bytes('A'.repeat(16 * 1024));
    let reads = 0;
    expect(() => {
      for (;;) {
        meter.count(read);
        reads++;
      }
    }).toThrow(ReplyLimitError);
    expect(reads).toBe(4); // 4 × 16 KiB fit under 1 KiB + 64 KiB; the fifth read passes it
    expect(meter.breach).toEqual({ limit: 'maxToolArgumentBytes', value: 1024 });
    expect(breaches).toEqual([{ limit: 'maxToolArgumentBytes', value: 1024 }]);
  });

  it('the whole reply past maxReplyBytes throws, however small its events', () => {
    const meter = new ReplyMeter(limits({ maxReplyBytes: 64 * 1024 }));
    const event = bytes(`data: ${'x'.repeat(100)}\n\n`);
    let count = 0;
    expect(() => {
      for (;;) {
        meter.count(event);
        count += event.length;
      }
    }).toThrow(/the reply passed 64 KiB/);
    expect(count).toBeLessThanOrEqual(64 * 1024);
    expect(count + event.length).toBeGreaterThan(64 * 1024);
    expect(meter.breach).toEqual({ limit: 'maxReplyBytes', value: 64 * 1024 });
  });
});

describe('LlmClient at a limit (P4.23)', () => {
  it('P4.23 a tool call whose arguments arrive in pieces (each event well under its cap) past maxToolArgumentBytes: one LlmCall, terminal, not retried', async () => {
    const args = JSON.stringify({ path: 'a.txt', content: 'B'.repeat(5000) });
    const k = await kit(
      { script: [{ toolCalls: [{ name: 'write_file', arguments: args }] }, { text: 'never asked for' }] },
      { profile: { maxToolArgumentBytes: 2048 } },
    );
    const error = await k.client.generate({ messages: USER }, k.hooks).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect(error).toMatchObject({
      kind: 'limit',
      retryable: false,
      breach: { limit: 'maxToolArgumentBytes', value: 2048 },
    });
    expect((error as LlmError).message).toContain('maxToolArgumentBytes = 2048 of LLM profile "test"');
    expect((error as LlmError).message).toContain('Settings → LLM profiles');
    expect(k.ends.map((e) => e.outcome)).toEqual(['terminal_error']);
    expect(k.server.requests).toHaveLength(1);
    // The live deltas stopped before the argument passed its limit: the person never saw more of it either.
    const shown = k.deltas.flatMap((d) => (d.type === 'tool_call' ? [d.argumentsDelta] : [])).join('');
    expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(2048);
  });

  it('P4.23 an error answer whose body passes maxReplyBytes is cut too, and not retried as a 5xx would be', async () => {
    const k = await kit(
      { script: [{ fault: 'http', status: 500, body: { error: { message: 'E'.repeat(300_000) } } }, { text: 'no' }] },
      { profile: { maxReplyBytes: 64 * 1024 } },
    );
    const error = await k.client.generate({ messages: USER }, k.hooks).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'limit', breach: { limit: 'maxReplyBytes', value: 64 * 1024 } });
    expect((error as LlmError).message.length).toBeLessThan(1000);
    expect(k.server.requests).toHaveLength(1);
  });

  it('P4.23 chunks every 100 ms keep the idle timer (500 ms) from firing; maxCallSeconds = 1 ends the call', async () => {
    const k = await kit(
      { script: [{ text: 'word '.repeat(40), textChunks: 40, chunkDelayMs: 100 }, { text: 'never asked for' }] },
      { idleTimeoutMs: 500, profile: { maxCallSeconds: 1 } },
    );
    const started = Date.now();
    const error = await k.client.generate({ messages: USER }, k.hooks).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error).toMatchObject({ kind: 'limit', breach: { limit: 'maxCallSeconds', value: 1 } });
    expect((error as LlmError).message).toMatch(/the reply took longer than 1 s/);
    expect(k.server.requests).toHaveLength(1);
  });
});

describe('the limits of a profile', () => {
  it('default when unset; a saved profile takes values in range and names the field of one out of range', () => {
    expect(replyLimitsOf({})).toEqual(REPLY_LIMIT_DEFAULTS);
    const base = { name: 'p', baseURL: 'http://127.0.0.1:1/v1', model: 'm' };
    expect(SaveProfileInput.safeParse({ ...base, maxReplyBytes: 1 << 20, maxCallSeconds: 60 }).success).toBe(true);
    const bad = SaveProfileInput.safeParse({ ...base, maxReplyBytes: 10, maxCallSeconds: 0.5 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['maxReplyBytes', 'maxCallSeconds']);
  });

  it('a saved profile keeps its limits in profiles.json; the client of it uses them; a broken value in the file is refused', () => {
    const dir = tempDir();
    const store = new ProfileStore(path.join(dir, 'profiles.json'), fileSecretBox(path.join(dir, SECRET_KEY_FILE)));
    const registry = new ProfileRegistry([], store);
    registry.save({
      name: 'p',
      baseURL: 'http://127.0.0.1:1/v1',
      model: 'm',
      maxReplyBytes: 1 << 20,
      maxCallSeconds: 60,
    });
    expect(registry.view('p')).toMatchObject({ maxReplyBytes: 1 << 20, maxCallSeconds: 60 });
    expect(registry.view('p')).not.toHaveProperty('maxToolArgumentBytes');
    expect(replyLimitsOf(registry.get('p') ?? {})).toEqual({
      maxReplyBytes: 1 << 20,
      maxToolArgumentBytes: REPLY_LIMIT_DEFAULTS.maxToolArgumentBytes,
      maxCallSeconds: 60,
    });
    const file = JSON.parse(fs.readFileSync(store.file, 'utf8'));
    file.profiles[0].maxCallSeconds = -5;
    fs.writeFileSync(store.file, JSON.stringify(file));
    const reread = new ProfileStore(store.file, fileSecretBox(path.join(dir, SECRET_KEY_FILE)));
    expect(reread.error?.message).toMatch(/profiles\.0\.maxCallSeconds/);
  });

  it('the env profile reads MAESTRO_LLM_MAX_*; a value out of range stops with the variable named', () => {
    const env = { MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:1/v1', MAESTRO_LLM_MAX_CALL_SECONDS: '90' };
    expect(ProfileRegistry.fromEnv(env).get('env')).toMatchObject({ maxCallSeconds: 90 });
    expect(ProfileRegistry.fromEnv(env).view('env')).toMatchObject({ maxCallSeconds: 90 });
    expect(() => ProfileRegistry.fromEnv({ ...env, MAESTRO_LLM_MAX_REPLY_BYTES: '12kb' })).toThrow(
      /^MAESTRO_LLM_MAX_REPLY_BYTES="12kb": must be a whole number from 65536 to 1073741824$/,
    );
  });
});
