// vLLM ≥ 0.19 with a reasoning parser: `reasoning` (renamed from reasoning_content) and a tool parser's call.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-vllm-42', 'Qwen/Qwen3-32B');

export const vllm: ProviderShape = {
  name: 'vLLM (reasoning)',
  kind: 'vllm',
  origin: 'documented',
  source:
    'github.com/strands-agents/harness-sdk/pull/2191 (vLLM 0.19.1 renamed delta.reasoning_content to ' +
    'delta.reasoning); github.com/BerriAI/litellm/pull/22573; vllm-project/vllm tool parsers (index, id "chatcmpl-tool-…")',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: '' }),
          f({ reasoning: 'Weather for ' }),
          f({ reasoning: 'Nairobi.' }),
          f({
            tool_calls: [{ id: 'chatcmpl-tool-9a1b', type: 'function', index: 0, function: { name: 'get_weather' } }],
          }),
          f({ tool_calls: [{ index: 0, function: { arguments: '{"city": "Nairobi"}' } }] }),
          f({ content: '' }, 'tool_calls'),
          {
            ...f({}),
            choices: [],
            usage: { prompt_tokens: 150, total_tokens: 170, completion_tokens: 20, prompt_tokens_details: null },
          },
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: 'Weather for Nairobi.',
    toolCalls: [{ id: 'chatcmpl-tool-9a1b', name: 'get_weather', arguments: { city: 'Nairobi' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 150, completionTokens: 20, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};
