// Groq: the whole call in one chunk, usage under `x_groq.usage` on the finish chunk.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-e7f8e220', 'llama-3.3-70b-versatile');

export const groq: ProviderShape = {
  name: 'Groq (x_groq usage)',
  kind: 'groq',
  origin: 'recorded',
  source:
    'a recorded Groq stream in a public test (find_string "x_groq":{"id": finish chunk {"delta":{},"finish_reason":' +
    '"tool_calls"} with x_groq.usage {queue_time, prompt_tokens, completion_tokens, …}); x_groq.id on the first chunk',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: null }, null, { x_groq: { id: 'req_01jadadp0femyae9kav1gpkhe8' } }),
          f({
            tool_calls: [
              {
                id: 'call_g7w1',
                type: 'function',
                index: 0,
                function: { name: 'get_weather', arguments: '{"city":"Cairo"}' },
              },
            ],
          }),
          f({}, 'tool_calls', {
            x_groq: {
              id: 'req_01jadadp0femyae9kav1gpkhe8',
              usage: {
                queue_time: 0.06,
                prompt_tokens: 218,
                prompt_time: 0.0002,
                completion_tokens: 19,
                total_tokens: 237,
              },
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
    reasoning: '',
    toolCalls: [{ id: 'call_g7w1', name: 'get_weather', arguments: { city: 'Cairo' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 218, completionTokens: 19, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};
