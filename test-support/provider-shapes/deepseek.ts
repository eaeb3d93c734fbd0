// DeepSeek (thinking mode): reasoning_content before the call, cached tokens as prompt_cache_hit_tokens.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('0f9c1a2b-deepseek', 'deepseek-reasoner');

export const deepseek: ProviderShape = {
  name: 'DeepSeek (reasoning_content, prompt_cache_hit_tokens)',
  kind: 'deepseek',
  origin: 'documented',
  source:
    'api-docs.deepseek.com/guides/reasoning_model (delta.reasoning_content, to be sent back on tool-call turns) and ' +
    '/guides/kv_cache (usage.prompt_cache_hit_tokens, prompt_cache_miss_tokens); usage shape as recorded in public ' +
    'test fixtures (find_string "prompt_cache_hit_tokens": reasoning_tokens in completion_tokens_details)',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: null, reasoning_content: '' }),
          f({ content: null, reasoning_content: 'The user wants ' }),
          f({ content: null, reasoning_content: 'the weather in Rome.' }),
          f({
            content: null,
            tool_calls: [
              { index: 0, id: 'call_00_dS3k', type: 'function', function: { name: 'get_weather', arguments: '' } },
            ],
          }),
          f({ content: null, tool_calls: [{ index: 0, function: { arguments: '{"city": "Rome"}' } }] }),
          f({ content: null }, 'tool_calls', {
            usage: {
              prompt_tokens: 700,
              completion_tokens: 55,
              total_tokens: 755,
              prompt_tokens_details: { cached_tokens: 640 },
              prompt_cache_hit_tokens: 640,
              prompt_cache_miss_tokens: 60,
              completion_tokens_details: { reasoning_tokens: 30 },
            },
          }),
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: 'The user wants the weather in Rome.',
    toolCalls: [{ id: 'call_00_dS3k', name: 'get_weather', arguments: { city: 'Rome' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 700, completionTokens: 55, cachedPromptTokens: 640, reasoningTokens: 30 },
    llmCalls: 1,
  },
};
