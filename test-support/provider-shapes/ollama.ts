// Ollama: each tool call whole in one chunk; older versions give every call index 0 (the field existed but was never
// set) and send `finish_reason: ""` on every chunk before the last.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-693', 'qwen3:8b');

export const ollama: ProviderShape = {
  name: 'Ollama (whole tool calls, with index)',
  kind: 'ollama',
  origin: 'documented',
  source:
    'ollama/ollama openai/openai.go (ToToolCalls: whole call per chunk, Index from the parser, usage from Metrics ' +
    'when stream_options.include_usage)',
  replies: [
    {
      raw: {
        sse: [
          f({
            role: 'assistant',
            content: '',
            tool_calls: [
              {
                id: 'call_k3ra9v2x',
                index: 0,
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Lima"}' },
              },
            ],
          }),
          f({ role: 'assistant', content: '' }, 'tool_calls'),
          { ...f({}), choices: [], usage: { prompt_tokens: 180, completion_tokens: 18, total_tokens: 198 } },
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: '',
    toolCalls: [{ id: 'call_k3ra9v2x', name: 'get_weather', arguments: { city: 'Lima' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 180, completionTokens: 18, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};

export const ollamaOld: ProviderShape = {
  name: 'Ollama, older (two calls both at index 0, finish_reason "")',
  kind: 'ollama',
  origin: 'documented',
  source:
    'ollama/ollama openai/openai.go, older ToToolCalls (ToolCall.Index declared, never set: every call index 0); ' +
    'github.com/ollama/ollama/issues/4357 (finish_reason "" on every chunk while streaming)',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: '' }, ''),
          f(
            {
              role: 'assistant',
              content: '',
              tool_calls: [
                {
                  id: 'call_a1',
                  index: 0,
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Quito"}' },
                },
                {
                  id: 'call_b2',
                  index: 0,
                  type: 'function',
                  function: { name: 'get_weather', arguments: '{"city":"Cusco"}' },
                },
              ],
            },
            '',
          ),
          f({ role: 'assistant', content: '' }, 'stop'),
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
      { id: 'call_a1', name: 'get_weather', arguments: { city: 'Quito' } },
      { id: 'call_b2', name: 'get_weather', arguments: { city: 'Cusco' } },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};
