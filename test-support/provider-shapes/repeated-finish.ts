// A proxy that sends the finish chunk twice (again with the usage), the second with another finish_reason.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-rep', 'gpt-4o-mini');

export const repeatedFinish: ProviderShape = {
  name: 'Repeated finish chunks',
  origin: 'documented',
  source:
    'github.com/BerriAI/litellm/pull/40040 (a proxy reporting the wrong finish_reason on a streamed tool call); ' +
    'OpenAI-compatible proxies that repeat the finish chunk with the usage attached',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: '' }),
          f({
            tool_calls: [
              {
                index: 0,
                id: 'call_r1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Baku"}' },
              },
            ],
          }),
          f({}, 'tool_calls'),
          f({}, 'stop', { usage: { prompt_tokens: 70, completion_tokens: 12, total_tokens: 82 } }),
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: '',
    toolCalls: [{ id: 'call_r1', name: 'get_weather', arguments: { city: 'Baku' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 70, completionTokens: 12, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};
