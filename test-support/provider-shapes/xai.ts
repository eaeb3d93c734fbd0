// xAI (grok mini reasoning): reasoning_content, the call whole in one chunk, reasoning tokens in the usage.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('b1c2d3-xai', 'grok-3-mini');

export const xai: ProviderShape = {
  name: 'xAI (reasoning_content, reasoning_tokens)',
  origin: 'documented',
  source:
    'docs.x.ai/docs/guides/reasoning (reasoning_content on grok-3-mini; usage.completion_tokens_details.' +
    'reasoning_tokens); docs.apiyi.com/en/api-capabilities/grok/chat (include_usage works; reasoning_content)',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', reasoning_content: 'Weather: call the tool.' }),
          f({
            tool_calls: [
              {
                id: 'call_58219301',
                function: { name: 'get_weather', arguments: '{"city":"Lagos"}' },
                index: 0,
                type: 'function',
              },
            ],
          }),
          f({}, 'tool_calls'),
          {
            ...f({}),
            choices: [],
            usage: {
              prompt_tokens: 260,
              completion_tokens: 90,
              total_tokens: 350,
              prompt_tokens_details: { text_tokens: 260, audio_tokens: 0, image_tokens: 0, cached_tokens: 128 },
              completion_tokens_details: { reasoning_tokens: 70, audio_tokens: 0 },
              num_sources_used: 0,
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
    reasoning: 'Weather: call the tool.',
    toolCalls: [{ id: 'call_58219301', name: 'get_weather', arguments: { city: 'Lagos' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 260, completionTokens: 90, cachedPromptTokens: 128, reasoningTokens: 70 },
    llmCalls: 1,
  },
};
