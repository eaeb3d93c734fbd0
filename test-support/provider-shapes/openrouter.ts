// OpenRouter: `: OPENROUTER PROCESSING` keep-alive comments, reasoning as `reasoning` text plus `reasoning_details`
// blocks streamed in pieces of one index (the signature last), then a tool call and usage.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('gen-1760000000-abc', 'anthropic/claude-sonnet-4.5');

export const openrouter: ProviderShape = {
  name: 'OpenRouter (SSE comments, reasoning and reasoning_details)',
  kind: 'openrouter',
  origin: 'documented',
  source:
    'openrouter.ai/docs/api-reference/streaming (": OPENROUTER PROCESSING" comments); ' +
    'openrouter.ai/docs/guides/best-practices/reasoning-tokens (delta.reasoning, reasoning_details array of ' +
    'reasoning.text/summary/encrypted blocks with index, format and signature, to be sent back unchanged)',
  replies: [
    {
      raw: {
        sse: [
          ': OPENROUTER PROCESSING',
          ': OPENROUTER PROCESSING',
          f({
            role: 'assistant',
            content: '',
            reasoning: 'Need the ',
            reasoning_details: [{ type: 'reasoning.text', text: 'Need the ', format: 'anthropic-claude-v1', index: 0 }],
          }),
          f({
            role: 'assistant',
            content: '',
            reasoning: 'weather.',
            reasoning_details: [{ type: 'reasoning.text', text: 'weather.', format: 'anthropic-claude-v1', index: 0 }],
          }),
          f({
            role: 'assistant',
            content: '',
            reasoning_details: [
              { type: 'reasoning.text', signature: 'EqQBCkgIBxABGAIiQL', format: 'anthropic-claude-v1', index: 0 },
            ],
          }),
          f({
            role: 'assistant',
            content: null,
            tool_calls: [
              { index: 0, id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":' } },
            ],
          }),
          f({ role: 'assistant', content: null, tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
          f({ role: 'assistant', content: '' }, 'tool_calls', { native_finish_reason: 'tool_use' }),
          {
            ...f({ role: 'assistant', content: '' }),
            choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
            usage: {
              prompt_tokens: 900,
              completion_tokens: 40,
              total_tokens: 940,
              prompt_tokens_details: { cached_tokens: 512 },
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
    reasoning: 'Need the weather.',
    reasoningDetails: [
      {
        type: 'reasoning.text',
        text: 'Need the weather.',
        format: 'anthropic-claude-v1',
        index: 0,
        signature: 'EqQBCkgIBxABGAIiQL',
      },
    ],
    toolCalls: [{ id: 'toolu_01A', name: 'get_weather', arguments: { city: 'Oslo' } }],
    finishReason: 'tool_calls',
    usage: { promptTokens: 900, completionTokens: 40, cachedPromptTokens: 512 },
    llmCalls: 1,
  },
};
