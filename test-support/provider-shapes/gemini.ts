// Gemini's OpenAI endpoint: whole tool calls without `index` (parallel calls apart only by id), a thought signature
// in `extra_content` on the call and on the message, and "stop" as the finish of a reply that calls tools.
import { DONE, frames, type ProviderShape } from './shape';

const f = frames('gemini-resp-1', 'gemini-3-pro-preview');
const signature = (s: string) => ({ google: { thought_signature: s } });

export const gemini: ProviderShape = {
  name: 'Gemini OpenAI endpoint (no index, extra_content thought signatures)',
  kind: 'gemini',
  origin: 'documented',
  source:
    'github.com/open-webui/computer/issues/224 (Gemini omits tool_calls[].index, splits arguments over indexless ' +
    'deltas, finishes tool calls with "stop", extra_content.google.thought_signature also as a metadata-only delta); ' +
    'discuss.ai.google.dev/t/109823 (extra_content on the first content delta; 400 without the signature); ' +
    'github.com/NousResearch/hermes-agent/issues/62937 (parallel calls not told apart by index)',
  replies: [
    {
      raw: {
        sse: [
          f({ role: 'assistant', content: 'Checking both.', extra_content: signature('CrICAdHtim8_msg') }),
          f({
            role: 'assistant',
            tool_calls: [
              {
                id: 'function-call-1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":' },
                extra_content: signature('EjQKMgEMOdb_call1'),
              },
            ],
          }),
          f({ role: 'assistant', tool_calls: [{ type: 'function', function: { arguments: '"Sydney"}' } }] }),
          f({
            role: 'assistant',
            tool_calls: [
              {
                id: 'function-call-2',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Perth"}' },
              },
            ],
          }),
          f({ role: 'assistant', tool_calls: [{ extra_content: signature('EjQKMgEMOdb_call2') }] }),
          f({ role: 'assistant' }, 'stop', {
            usage: { prompt_tokens: 410, completion_tokens: 22, total_tokens: 432 },
          }),
          DONE,
        ],
      },
    },
  ],
  expect: {
    ok: true,
    text: 'Checking both.',
    reasoning: '',
    extra: signature('CrICAdHtim8_msg'),
    toolCalls: [
      {
        id: 'function-call-1',
        name: 'get_weather',
        arguments: { city: 'Sydney' },
        extra: signature('EjQKMgEMOdb_call1'),
      },
      {
        id: 'function-call-2',
        name: 'get_weather',
        arguments: { city: 'Perth' },
        extra: signature('EjQKMgEMOdb_call2'),
      },
    ],
    finishReason: 'tool_calls',
    usage: { promptTokens: 410, completionTokens: 22, cachedPromptTokens: 0 },
    llmCalls: 1,
  },
};
