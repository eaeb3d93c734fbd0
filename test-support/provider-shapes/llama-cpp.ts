// llama.cpp's server: reasoning_content with --reasoning-format deepseek, and `timings` on the last chunk (cache_n
// prompt tokens reused) — beside a usage object with include_usage, alone without it.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-Ll4m4', 'Qwen3-8B-Q4_K_M.gguf');
const fp = { system_fingerprint: 'b6500-abc' };
const timings = {
  cache_n: 2048,
  prompt_n: 96,
  prompt_ms: 210.5,
  prompt_per_token_ms: 2.19,
  prompt_per_second: 456.1,
  predicted_n: 31,
  predicted_ms: 610.2,
  predicted_per_token_ms: 19.7,
  predicted_per_second: 50.8,
};
const source =
  'ggml-org/llama.cpp tools/server/server-task.cpp (to_json_oaicompat_chat_stream: "timings" pushed onto the last ' +
  'chunk — the usage chunk with include_usage, else the finish chunk; result_timings::to_json cache_n/prompt_n/' +
  'predicted_n; reasoning_content diffs; older usage_json_oaicompat without prompt_tokens_details)';

const body = [
  f({ role: 'assistant', content: null }, null, fp),
  f({ reasoning_content: 'Look up ' }, null, fp),
  f({ reasoning_content: 'Kyiv.' }, null, fp),
  f(
    { tool_calls: [{ index: 0, id: 'mJ8TqZ2p', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
    null,
    fp,
  ),
  f({ tool_calls: [{ index: 0, function: { arguments: '{"city":"Kyiv"}' } }] }, null, fp),
];

export const llamaCpp: ProviderShape = {
  name: 'llama.cpp (reasoning_content, usage and timings.cache_n)',
  kind: 'llamacpp',
  origin: 'documented',
  source,
  replies: [
    {
      raw: {
        sse: [
          ...body,
          f({}, 'tool_calls', fp),
          {
            ...f({}, null, fp),
            choices: [],
            usage: { completion_tokens: 31, prompt_tokens: 2144, total_tokens: 2175 },
            timings,
          },
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: '',
    reasoning: 'Look up Kyiv.',
    toolCalls: [{ id: 'mJ8TqZ2p', name: 'get_weather', arguments: { city: 'Kyiv' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 2144, completionTokens: 31, cachedPromptTokens: 2048 },
    llmCalls: 1,
  },
};

export const llamaCppTimingsOnly: ProviderShape = {
  name: 'llama.cpp without a usage object (timings on the finish chunk)',
  kind: 'llamacpp',
  origin: 'documented',
  source,
  replies: [{ raw: { sse: [...body, f({}, 'tool_calls', { ...fp, timings }), DONE] } }],
  expect: {
    ok: true,
    text: '',
    reasoning: 'Look up Kyiv.',
    toolCalls: [{ id: 'mJ8TqZ2p', name: 'get_weather', arguments: { city: 'Kyiv' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 2144, completionTokens: 31, cachedPromptTokens: 2048 },
    llmCalls: 1,
  },
};
