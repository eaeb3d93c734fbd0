// Mistral: a 9-character call id, the whole call in one chunk, usage on the finish chunk itself; Magistral's
// content as parts (thinking, then text).
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('cmpl-82b4ad8d', 'mistral-medium-latest');

/**
 * Mistral's 422 to a request carrying `stream_options` (pydantic `extra_forbidden` inside `message.detail`):
 * avante-corp/avante.nvim#2347, dnakov/anon-kode#53.
 */
export const MISTRAL_422_STREAM_OPTIONS = {
  object: 'error',
  message: {
    detail: [
      {
        type: 'extra_forbidden',
        loc: ['body', 'stream_options', 'include_usage'],
        msg: 'Extra inputs are not permitted',
        input: true,
        url: 'https://errors.pydantic.dev/2.10/v/extra_forbidden',
      },
    ],
  },
  type: 'invalid_request_error',
  param: null,
  code: null,
};

export const mistral: ProviderShape = {
  name: 'Mistral (whole call, usage on the finish chunk)',
  kind: 'mistral',
  origin: 'documented',
  source:
    'docs.mistral.ai/api (chat completions streaming: tool_calls with 9-char ids, usage on the last chunk); ' +
    'github.com/mistralai/client-python/issues/16 (recorded stream envelope)',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: '' }),
          f({
            tool_calls: [
              { id: 'D681PevKs', function: { name: 'get_weather', arguments: '{"city": "Lyon"}' }, index: 0 },
            ],
          }),
          f({ content: '' }, 'tool_calls', { usage: { prompt_tokens: 90, total_tokens: 110, completion_tokens: 20 } }),
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: '',
    toolCalls: [{ id: 'D681PevKs', name: 'get_weather', arguments: { city: 'Lyon' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 90, completionTokens: 20, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};

const m = frames('cmpl-magistral', 'magistral-medium-latest');

export const magistral: ProviderShape = {
  name: 'Magistral (content as thinking and text parts)',
  kind: 'mistral',
  origin: 'documented',
  source:
    'github.com/openlit/openlit/issues/1597 (magistral-* content is a list of chunks: a thinking chunk holding text ' +
    'chunks, then a text chunk; streamed the same way)',
  replies: [
    {
      raw: {
        sse: [
          m({
            role: 'assistant',
            content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Call the tool.' }] }],
          }),
          m({ content: [{ type: 'text', text: 'Looking it up.' }] }),
          m({
            tool_calls: [
              { id: 'Xk2PevKs1', function: { name: 'get_weather', arguments: '{"city":"Nice"}' }, index: 0 },
            ],
          }),
          m({ content: '' }, 'tool_calls', { usage: { prompt_tokens: 60, total_tokens: 90, completion_tokens: 30 } }),
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: 'Looking it up.',
    reasoning: 'Call the tool.',
    toolCalls: [{ id: 'Xk2PevKs1', name: 'get_weather', arguments: { city: 'Nice' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 60, completionTokens: 30, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};
