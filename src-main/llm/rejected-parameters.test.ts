// A parameter the server rejects, through the Worker: the job's AgentTurn sends again without it and succeeds, and
// the profile remembers it, so the next job never sends it (the env profile: in memory); and through the client.
import { describe, expect, it } from 'vitest';
import { complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { kit, USER } from '../../test-support/llm-kit';
import { MISTRAL_422_STREAM_OPTIONS } from '../../test-support/provider-shapes/mistral';
import { LlmError } from './errors';
import { ENV_PROFILE } from './profiles';
import { rejectedParameters } from './rejected-parameters';
import type { ToolSpec } from './types';

const TOOLS: ToolSpec[] = [{ type: 'function', function: { name: 'read', description: 'r', parameters: {} } }];

// Mistral's answer to `stream_options` (dnakov/anon-kode#53, a recorded 422 body from api.mistral.ai; the same
// pydantic `extra_forbidden` shape in mistralai/platform-docs-public#7).
const MISTRAL_422 = { raw: { status: 422, body: JSON.stringify(MISTRAL_422_STREAM_OPTIONS) } };

describe('rejectedParameters', () => {
  const body = {
    model: 'm',
    messages: [],
    stream: true as const,
    stream_options: { include_usage: true },
    temperature: 0.2,
  };

  it('names only optional parameters that were sent, as whole words', () => {
    expect(rejectedParameters(MISTRAL_422.raw.body, body)).toEqual(['stream_options']);
    expect(rejectedParameters("'temperature' is not supported with this model", body)).toEqual(['temperature']);
    expect(rejectedParameters('parallel_tool_calls is not supported', body)).toEqual([]);
    expect(rejectedParameters('max_temperatures is not a field', body)).toEqual([]);
  });
});

describe('a rejected parameter through the Worker', () => {
  it('the first job drops stream_options after the 422 and succeeds; the next job never sends it', async () => {
    const h = await engineHarness([MISTRAL_422, complete('first'), complete('second')]);
    const first = h.createTask('First');
    expect((await h.waitFor(first.jobId, SETTLED)).status).toBe('succeeded');
    const second = h.createTask('Second');
    expect((await h.waitFor(second.jobId, SETTLED)).status).toBe('succeeded');
    const sent = h.server.requests.map((r) => r.rawBody.includes('"stream_options"'));
    expect(sent).toEqual([true, false, false]);
    expect(h.maestro.invoke('listProfiles', {}).profiles.find((p) => p.name === ENV_PROFILE)).toMatchObject({
      rejectedParameters: ['stream_options'],
    });
  });
});

describe('a parameter the server rejects', () => {
  it('Mistral 422 on stream_options: sent again at once without it, as another LlmCall; the profile remembers it', async () => {
    const remembered: string[][] = [];
    const k = await kit(
      { script: [MISTRAL_422, { text: 'hello' }, { text: 'again' }] },
      { profile: { rememberRejected: (ps) => remembered.push([...ps]) } },
    );
    const result = await k.client.generate({ messages: USER }, k.hooks);
    expect(result.text).toBe('hello');
    const [rejected, retried] = k.server.requests;
    expect(rejected?.rawBody).toContain('"stream_options":{"include_usage":true}');
    expect(retried?.rawBody).toBe(rejected?.rawBody.replace(',"stream_options":{"include_usage":true}', ''));
    expect(result.calls.map((c) => [c.attempt, c.outcome, c.status])).toEqual([
      [1, 'retryable_error', 422],
      [2, 'ok', undefined],
    ]);
    expect(k.starts.map((s) => s.attempt)).toEqual([1, 2]);
    expect(remembered).toEqual([['stream_options']]);
    await k.client.generate({ messages: USER });
    expect(k.server.requests[2]?.rawBody).not.toContain('stream_options');
  });

  it('a 400 that names parallel_tool_calls and temperature drops both, once; a second refusal fails the turn', async () => {
    const refusal = (message: string) => ({
      fault: 'http' as const,
      status: 400,
      message,
    });
    const k = await kit({
      script: [
        refusal("Unsupported parameter: 'temperature' and 'parallel_tool_calls' are not supported with this model."),
        refusal('Invalid model for tools'),
      ],
    });
    const error = await k.client
      .generate({ messages: USER, tools: TOOLS, temperature: 0.3, parallelToolCalls: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).kind).toBe('terminal');
    expect(k.server.requests).toHaveLength(2);
    const retried = k.server.requests[1]?.body as Record<string, unknown>;
    expect(retried).not.toHaveProperty('temperature');
    expect(retried).not.toHaveProperty('parallel_tool_calls');
    expect(retried).toHaveProperty('stream_options');
  });

  it('a 422 that names no parameter we sent fails at once, one request', async () => {
    const k = await kit({ script: [{ fault: 'http', status: 422, message: 'messages.2.content: field required' }] });
    await expect(k.client.generate({ messages: USER })).rejects.toMatchObject({ kind: 'terminal' });
    expect(k.server.requests).toHaveLength(1);
  });
});
