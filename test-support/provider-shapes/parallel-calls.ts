// Parallel tool calls with interleaved argument deltas (OpenAI's parallel_tool_calls), kept apart by index.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-par', 'gpt-4.1');

export const parallelCalls: ProviderShape = {
  name: 'Parallel tool calls, deltas interleaved',
  origin: 'documented',
  source:
    'openai/openai-node src/lib/ChatCompletionStream.ts (tool call deltas accumulated per choice by tool_calls[].index); ' +
    'platform.openai.com/docs/guides/function-calling (parallel function calling)',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: null }),
          f({
            tool_calls: [
              { index: 0, id: 'call_p0', type: 'function', function: { name: 'get_weather', arguments: '' } },
            ],
          }),
          f({
            tool_calls: [
              { index: 1, id: 'call_p1', type: 'function', function: { name: 'get_weather', arguments: '' } },
            ],
          }),
          f({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Doha"' } }] }),
          f({ tool_calls: [{ index: 1, function: { arguments: '{"city":"Riga"}' } }] }),
          f({ tool_calls: [{ index: 0, function: { arguments: '}' } }] }),
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
    toolCalls: [
      { id: 'call_p0', name: 'get_weather', arguments: { city: 'Doha' } },
      { id: 'call_p1', name: 'get_weather', arguments: { city: 'Riga' } },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};
