// Kimi K2 thinking (Moonshot): reasoning_content, call ids like `functions.get_weather:0`, usage inside the choice.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-kimi-7f3', 'kimi-k2-thinking');

export const kimiK2Thinking: ProviderShape = {
  name: 'Kimi K2 thinking (reasoning_content, usage in the choice)',
  kind: 'moonshot',
  origin: 'documented',
  source:
    'platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model (reasoning_content streamed and required back with ' +
    'tool calls); usage in chunk.choices[0].usage: github.com/earendil-works/pi/issues/2017',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: '' }),
          f({ reasoning_content: 'I will call the ' }),
          f({ reasoning_content: 'weather tool.' }),
          f({
            tool_calls: [
              {
                index: 0,
                id: 'functions.get_weather:0',
                type: 'function',
                function: { name: 'get_weather', arguments: '' },
              },
            ],
          }),
          f({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Tokyo"}' } }] }),
          {
            ...f({}),
            choices: [
              {
                index: 0,
                delta: {},
                finish_reason: 'tool_calls',
                usage: { prompt_tokens: 300, completion_tokens: 25, total_tokens: 325, cached_tokens: 256 },
              },
            ],
          },
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: 'I will call the weather tool.',
    toolCalls: [{ id: 'functions.get_weather:0', name: 'get_weather', arguments: { city: 'Tokyo' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 300, completionTokens: 25, cachedPromptTokens: 256 },
    llmCalls: 1,
  },
};
