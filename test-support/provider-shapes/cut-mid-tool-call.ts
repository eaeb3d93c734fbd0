// A stream cut in the middle of a tool call's arguments (no finish, no [DONE]): retried, and the retry answers.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-cut', 'local-model');

export const cutMidToolCall: ProviderShape = {
  name: 'A stream cut mid-tool-call, then a whole reply',
  origin: 'documented',
  source:
    'github.com/anomalyco/opencode/pull/40061 (an upstream SSE connection cut mid-turn, EOF with no finish frame); ' +
    'a server restarted or killed while generating',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: null }),
          f({
            tool_calls: [
              { index: 0, id: 'call_c1', type: 'function', function: { name: 'get_weather', arguments: '{"ci' } },
            ],
          }),
        ],
        cut: true,
      },
    },
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: null }),
          f({
            tool_calls: [
              {
                index: 0,
                id: 'call_c2',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Oran"}' },
              },
            ],
          }),
          f({}, 'tool_calls'),
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: '',
    toolCalls: [{ id: 'call_c2', name: 'get_weather', arguments: { city: 'Oran' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 },
    llmCalls: 2,
  },
};
