// A model that streams its reasoning inline as <think>…</think> in `content` (llama.cpp --reasoning-format none,
// LM Studio, Groq reasoning_format raw), the tags cut across chunks.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('chatcmpl-think', 'qwen3-14b');

export const inlineThink: ProviderShape = {
  name: 'Inline <think> in content, tags split across chunks',
  origin: 'documented',
  source:
    'ggml-org/llama.cpp tools/server README (--reasoning-format none leaves <think> in content); ' +
    'github.com/BerriAI/litellm/issues/19849 (Groq qwen3 streams <think> tags in content); ' +
    'hexdocs.pm/req_llm/ReqLLM.Providers.Groq.html (normalizes <think> tags)',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: '<thi' }),
          f({ content: 'nk>\nThe user asks ' }),
          f({ content: 'about Bern.</th' }),
          f({ content: 'ink>\n\nLet me check.' }),
          f({
            tool_calls: [
              {
                index: 0,
                id: 'call_t1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Bern"}' },
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
    text: 'Let me check.',
    reasoning: '\nThe user asks about Bern.',
    toolCalls: [{ id: 'call_t1', name: 'get_weather', arguments: { city: 'Bern' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};
