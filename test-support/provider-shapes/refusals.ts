// How DeepSeek, Kimi and Gemini refuse a request whose conversation lacks what they streamed before (reasoning, thought
// signatures): each server's check of a request, and its 400 with the server's own body, for the scripted server's
// `refuse` option.
import type { RawReply, RecordedRequest } from '../scripted-llm-server';
import { deepseek } from './deepseek';
import { gemini } from './gemini';
import { kimiK2Thinking } from './kimi-k2-thinking';
import type { ProviderShape } from './shape';

type Sent = { role?: string; reasoning_content?: unknown; tool_calls?: { extra_content?: unknown }[] };

export interface ProviderRefusal {
  name: string;
  /** The shape whose reply calls a tool with what the server needs back. */
  shape: ProviderShape;
  /** The 400 the server answers a request without it; undefined when the request is whole. */
  refuse(request: RecordedRequest): RawReply | undefined;
}

const messagesOf = (request: RecordedRequest): Sent[] => (request.body?.messages ?? []) as Sent[];

/** The index of the first assistant message with tool calls that `lacks` what the server needs; -1 when none does. */
function firstLacking(request: RecordedRequest, lacks: (m: Sent) => boolean): number {
  return messagesOf(request).findIndex((m) => m.role === 'assistant' && (m.tool_calls ?? []).length > 0 && lacks(m));
}

const noReasoning = (m: Sent) => typeof m.reasoning_content !== 'string';

const json400 = (body: unknown): RawReply => ({
  raw: { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
});

/**
 * DeepSeek thinking mode (V4): the body as reported against api.deepseek.com in earendil-works/pi#3636 and
 * borawong/AiMaMi#8.
 */
export const deepseekRefusal: ProviderRefusal = {
  name: 'DeepSeek',
  shape: deepseek,
  refuse: (request) =>
    firstLacking(request, noReasoning) < 0
      ? undefined
      : json400({
          error: {
            message: 'The `reasoning_content` in the thinking mode must be passed back to the API.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_request_error',
          },
        }),
};

/** Kimi K2 thinking (api.moonshot.ai / .cn): the body as reported in bytedance/deer-flow#3043 and continuedev#11527. */
export const kimiRefusal: ProviderRefusal = {
  name: 'Kimi',
  shape: kimiK2Thinking,
  refuse: (request) => {
    const index = firstLacking(request, noReasoning);
    if (index < 0) return undefined;
    return json400({
      error: {
        message: `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${index}`,
        type: 'invalid_request_error',
      },
    });
  },
};

/**
 * Gemini's OpenAI endpoint (Gemini 3): the first call of each step needs its `extra_content.google.thought_signature`;
 * the array body as reported from generativelanguage.googleapis.com/v1beta/openai in manthanabc/paws#103.
 */
export const geminiRefusal: ProviderRefusal = {
  name: 'Gemini',
  shape: gemini,
  refuse: (request) => {
    const index = firstLacking(request, (m) => !hasSignature(m.tool_calls?.[0]?.extra_content));
    if (index < 0) return undefined;
    return json400([
      {
        error: {
          code: 400,
          message:
            'Function call is missing a thought_signature in functionCall parts. This is required for tools to work ' +
            'correctly, and missing thought_signature may lead to degraded model performance. Additional data, ' +
            `function call \`default_api:get_weather\` , position ${index}. Please refer to ` +
            'https://ai.google.dev/gemini-api/docs/thought-signatures for more details.',
          status: 'INVALID_ARGUMENT',
        },
      },
    ]);
  },
};

function hasSignature(extra: unknown): boolean {
  const google = (extra as { google?: { thought_signature?: unknown } } | undefined)?.google;
  return typeof google?.thought_signature === 'string';
}

export const PROVIDER_REFUSALS: readonly ProviderRefusal[] = [deepseekRefusal, kimiRefusal, geminiRefusal];
