// OpenAI: arguments split over deltas by index, `usage: null` on every chunk, then a `choices: []` usage chunk with
// cached and reasoning tokens (stream_options.include_usage).
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-AaBb', 'gpt-5-mini-2025-08-07');
const u = { usage: null };

export const openai: ProviderShape = {
  name: 'OpenAI (include_usage, cached and reasoning tokens)',
  kind: 'openai',
  origin: 'documented',
  source:
    'openai/openai-node src/resources/chat/completions/completions.ts (ChatCompletionChunk: usage only on the last ' +
    'chunk, choices empty, when stream_options.include_usage; CompletionUsage.prompt_tokens_details.cached_tokens, ' +
    'completion_tokens_details.reasoning_tokens); platform.openai.com/docs/api-reference/chat-streaming',
  replies: [
    {
      raw: {
        headers: { 'x-request-id': 'req_openai_1' },
        sse: [
          f({ role: 'assistant', content: null, refusal: null }, null, u),
          f(
            {
              tool_calls: [
                { index: 0, id: 'call_Xy12', type: 'function', function: { name: 'get_weather', arguments: '' } },
              ],
            },
            null,
            u,
          ),
          f({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }, null, u),
          f({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Paris"}' } }] }, null, u),
          f({}, 'tool_calls', u),
          {
            ...f({}),
            choices: [],
            usage: {
              prompt_tokens: 1200,
              completion_tokens: 80,
              total_tokens: 1280,
              prompt_tokens_details: { cached_tokens: 1024, audio_tokens: 0 },
              completion_tokens_details: { reasoning_tokens: 64, audio_tokens: 0 },
            },
          },
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: '',
    toolCalls: [{ id: 'call_Xy12', name: 'get_weather', arguments: { city: 'Paris' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 1200, completionTokens: 80, cachedPromptTokens: 1024, reasoningTokens: 64 },
    llmCalls: 1,
  },
};
