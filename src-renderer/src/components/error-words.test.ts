// A failed model call in the person's words (P4.23, P2.17): each HTTP status and failure the server's text shows, and
// each code main gives, maps to its own sentence in English and Japanese, naming the profile and the status; what is
// not recognised gets a generic sentence (the server's text is still folded under it, JobError).
import { describe, expect, it } from 'vitest';
import { translator } from '../i18n';
import { errorCase, errorHeadline, fixField, MODEL_FAILURES, statusIn } from './error-words';

const en = translator('en');
const ja = translator('ja');

describe('errorCase', () => {
  it.each([
    [undefined, 'LLM: LLM request refused: 401 scripted-llm-server: missing or wrong API key', 'auth', 401],
    [undefined, 'LLM request refused: 403 Forbidden', 'auth', 403],
    ['profile_key_refused', 'LLM request refused: 401 invalid_api_key', 'auth', 401],
    [undefined, 'LLM request refused: 404 The model `gpt-9` does not exist', 'model_not_found', 404],
    ['profile_model_unknown', 'LLM request refused: 404 model not found', 'model_not_found', 404],
    ['llm_failed', 'LLM failed after 4 LlmCalls: 429 Rate limit reached for requests', 'rate_limit', 429],
    [undefined, 'LLM failed after 4 LlmCalls: Too Many Requests', 'rate_limit', null],
    ['llm_failed', 'LLM failed after 4 LlmCalls: 503 Service Unavailable', 'server_error', 503],
    [undefined, 'LLM failed after 4 LlmCalls: 500 Internal Server Error', 'server_error', 500],
    [
      'profile_unreachable',
      'LLM server unreachable at http://127.0.0.1:11434/v1: Connection error.',
      'unreachable',
      null,
    ],
    [undefined, 'connect ECONNREFUSED 127.0.0.1:9', 'unreachable', null],
    ['profile_unreachable', 'LLM server unreachable at http://10.0.0.1/v1: Request timed out.', 'timeout', null],
    ['llm_failed', 'LLM failed after 4 LlmCalls: 504 Gateway Timeout', 'timeout', 504],
    [
      'context_overflow',
      'prompt of ~9000 tokens plus 1000 reserved exceeds the context window of 8192',
      'context_too_long',
      null,
    ],
    [undefined, "LLM request refused: 400 This model's maximum context length is 8192 tokens", 'context_too_long', 400],
    ['profile_missing', 'no LLM profile named gone', 'profile_missing', null],
  ] as const)('%s / %s → %s', (code, detail, failure, status) => {
    expect(errorCase(code, detail)).toEqual({ kind: 'model', failure, status });
  });

  it("keeps the job's own failures (not the model server's) as they are", () => {
    expect(errorCase('tool_loop', 'tool loop: list_dir was called 5 times')).toEqual({
      kind: 'job',
      code: 'tool_loop',
    });
    expect(errorCase('llm_limit', 'maxReplyBytes = 1048576')).toEqual({ kind: 'job', code: 'llm_limit' });
    // An llm_failed whose text says nothing known is the job's generic model failure, not "unknown".
    expect(errorCase('llm_failed', 'LLM failed after 4 LlmCalls: stream ended')).toEqual({
      kind: 'job',
      code: 'llm_failed',
    });
  });

  it('unknown: no code and nothing recognised in the text', () => {
    expect(errorCase(undefined, 'Something odd happened')).toEqual({ kind: 'unknown', status: null });
    expect(errorCase(undefined, 'refused: 418 teapot')).toEqual({ kind: 'unknown', status: 418 });
  });

  it('reads the status after a colon only: a port or a count is not a status', () => {
    expect(statusIn('LLM server unreachable at http://127.0.0.1:500/v1: Connection error.')).toBeNull();
    expect(statusIn('LLM failed after 429 LlmCalls: stream ended')).toBeNull();
    expect(statusIn('LLM request refused: 401 no')).toBe(401);
  });
});

describe('errorHeadline', () => {
  it('says every model failure in both languages, naming the profile, with the status when there is one', () => {
    for (const failure of MODEL_FAILURES) {
      for (const t of [en, ja]) {
        const text = errorHeadline(t, { kind: 'model', failure, status: 503 }, 'work');
        expect(text, `${failure}`).not.toMatch(/\{|modelError\./);
        const bare = errorHeadline(t, { kind: 'model', failure, status: null }, 'work');
        expect(bare).not.toContain('503');
      }
    }
    const auth = { kind: 'model', failure: 'auth', status: 401 } as const;
    expect(errorHeadline(en, auth, 'work')).toBe('The model server refused the key of profile work (401).');
    expect(errorHeadline(ja, auth, 'work')).toBe('モデルサーバーがプロファイル work のキーを拒否しました（401）。');
    const limited = { kind: 'model', failure: 'rate_limit', status: 429 } as const;
    expect(errorHeadline(en, limited, 'work')).toBe(
      'The model server is limiting how often it answers (429). Wait a moment, then retry.',
    );
    expect(errorHeadline(ja, limited, 'work')).toContain('制限');
    const gone = { kind: 'model', failure: 'unreachable', status: null } as const;
    expect(errorHeadline(en, gone, 'work')).toBe('The model server of profile work could not be reached.');
  });

  it("uses the job's own words for its other failures, and a generic sentence for the unknown", () => {
    expect(errorHeadline(en, { kind: 'job', code: 'tool_loop' }, 'w')).toBe(
      'The agent repeated the same tool call, so the run stopped.',
    );
    expect(errorHeadline(en, { kind: 'unknown', status: null }, 'w')).toBe(
      'Something went wrong, so the work stopped.',
    );
    expect(errorHeadline(ja, { kind: 'unknown', status: 418 }, 'w')).toBe(
      '問題が起きたため、作業を止めました（418）。',
    );
  });
});

describe('fixField', () => {
  it('points at the field that fixes the failure, and at none when no field does', () => {
    const at = (failure: (typeof MODEL_FAILURES)[number]) => fixField({ kind: 'model', failure, status: null });
    expect(at('auth')).toBe('apiKey');
    expect(at('model_not_found')).toBe('model');
    expect(at('unreachable')).toBe('baseURL');
    expect(at('context_too_long')).toBe('contextWindow');
    expect(at('server_error')).toBeNull();
    expect(fixField({ kind: 'job', code: 'tool_loop' })).toBeNull();
  });
});
