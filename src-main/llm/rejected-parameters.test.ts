// A parameter the server rejects, through the Worker: the job's AgentTurn sends again without it and succeeds, and
// the profile remembers it, so the next job never sends it (the env profile: in memory).
import { describe, expect, it } from 'vitest';
import { complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { ENV_PROFILE } from './profiles';
import { rejectedParameters } from './rejected-parameters';

// Mistral's 422 to `stream_options` (dnakov/anon-kode#53: the body api.mistral.ai answered).
const MISTRAL_422 = {
  raw: {
    status: 422,
    body: '{"object":"error","message":{"detail":[{"type":"extra_forbidden","loc":["body","stream_options","include_usage"],"msg":"Extra inputs are not permitted","input":true,"url":"https://errors.pydantic.dev/2.10/v/extra_forbidden"}]},"type":"invalid_request_error","param":null,"code":null}',
  },
};

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
