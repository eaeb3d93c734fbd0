// The environment's default profile.
import { describe, expect, it } from 'vitest';
import { ENV_PROFILE, ProfileRegistry } from './profiles';

describe('ProfileRegistry.fromEnv', () => {
  it('has no profile without a base URL', () => {
    expect(ProfileRegistry.fromEnv({}).defaultName).toBeNull();
  });

  it('reads base URL, key, model and an optional context window', () => {
    const r = ProfileRegistry.fromEnv({
      MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:1/v1',
      MAESTRO_LLM_API_KEY: 'k',
      MAESTRO_LLM_MODEL: 'm',
      MAESTRO_LLM_CONTEXT_WINDOW: '32768',
    });
    expect(r.defaultName).toBe(ENV_PROFILE);
    expect(r.get(ENV_PROFILE)).toEqual({
      name: ENV_PROFILE,
      baseURL: 'http://127.0.0.1:1/v1',
      apiKey: 'k',
      model: 'm',
      contextWindow: 32768,
      rememberRejected: expect.any(Function),
      rememberSendBack: expect.any(Function),
    });
  });

  it('reads MAESTRO_LLM_KIND; an unknown kind is ignored (generic)', () => {
    const kind = (value: string) =>
      ProfileRegistry.fromEnv({ MAESTRO_LLM_BASE_URL: 'http://x/v1', MAESTRO_LLM_KIND: value }).view(ENV_PROFILE)?.kind;
    expect(kind('DeepSeek')).toBe('deepseek');
    expect(kind('llamacpp')).toBe('llamacpp');
    expect(kind('kimi')).toBe('generic');
    expect(ProfileRegistry.fromEnv({ MAESTRO_LLM_BASE_URL: 'http://x/v1' }).view(ENV_PROFILE)?.kind).toBe('generic');
  });

  it('ignores a context window that is not a positive integer', () => {
    const r = ProfileRegistry.fromEnv({ MAESTRO_LLM_BASE_URL: 'http://x/v1', MAESTRO_LLM_CONTEXT_WINDOW: '32k' });
    expect(r.get(ENV_PROFILE)?.contextWindow).toBeUndefined();
  });
});
