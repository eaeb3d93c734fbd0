// The request body of one AgentTurn's generation for a profile's kind: built once per generate(), so every LlmCall
// of the turn sends the same bytes (unless a parameter the server rejected is dropped, or an extra it asked for added).
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { effectiveKind, type OptionalParameter, type ProviderKind } from '../../src-shared/contract/profiles';
import { PrefixMemo } from './prefix-memo';
import type { LlmProfile } from './profiles';
import { PROVIDER_QUIRKS, type SentBack } from './provider-kinds';
import type { AssistantToolCall, ChatMessage, LlmRequest } from './types';

type Body = ChatCompletionCreateParamsStreaming;

/** What the profile's server taught it: parameters it refused, extras it asked back (both remembered on the profile). */
export interface Learned {
  rejected: ReadonlySet<OptionalParameter>;
  sendBack: ReadonlySet<SentBack>;
}

const NOTHING_LEARNED: Learned = { rejected: new Set(), sendBack: new Set() };

export function requestBody(profile: LlmProfile, request: LlmRequest, learned: Learned = NOTHING_LEARNED): Body {
  const kind = effectiveKind(profile);
  const quirks = PROVIDER_QUIRKS[kind];
  const { rejected } = learned;
  const tools = request.tools ?? [];
  const temperature = rejected.has('temperature') ? undefined : (request.temperature ?? profile.temperature);
  const parallel =
    quirks.parallelToolCalls && !rejected.has('parallel_tool_calls')
      ? (request.parallelToolCalls ?? profile.parallelToolCalls)
      : undefined;
  const streamOptions = quirks.streamOptions && !rejected.has('stream_options');
  return {
    model: profile.model,
    messages: requestMessages(request.messages, kind, learned.sendBack) as Body['messages'],
    ...(tools.length > 0 ? { tools: tools as Body['tools'] } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
    ...(tools.length > 0 && parallel !== undefined ? { parallel_tool_calls: parallel } : {}),
    stream: true as const,
    ...(streamOptions ? { stream_options: { include_usage: true } } : {}),
  };
}

/**
 * The conversation as the kind needs it: an assistant message keeps the extras its kind takes back (and those its
 * server asked for), in their place, and loses the others. A new list: a caller appending while we retry cannot change
 * what is retried.
 */
export function requestMessages(
  messages: readonly ChatMessage[],
  kind: ProviderKind,
  asked: ReadonlySet<SentBack> = new Set(),
): ChatMessage[] {
  const sendBack = [...new Set([...PROVIDER_QUIRKS[kind].sendBack, ...asked])].sort();
  const signature = sendBack.join(' ');
  let memo = kept.get(signature);
  if (!memo) {
    memo = new PrefixMemo((m) => (m.role === 'assistant' ? assistantMessage(m, sendBack) : m));
    kept.set(signature, memo);
  }
  return memo.apply(messages, messages);
}

/**
 * The conversations as sent, for each set of extras sent back: a conversation's request at turn N maps its new
 * messages only (the list is the caller's own, appended to in place or replaced by a rewrite).
 */
const kept = new Map<string, PrefixMemo<ChatMessage, ChatMessage>>();

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

const EXTRAS: ReadonlySet<string> = new Set(['reasoning_content', 'reasoning_details', 'extra_content']);

function assistantMessage(m: AssistantMessage, sendBack: readonly SentBack[]): AssistantMessage {
  if (!hasExtras(m)) return m;
  const calls = m.tool_calls ?? [];
  const keep = (key: string): boolean => {
    switch (key) {
      case 'reasoning_content':
        return sendBack.includes('reasoning_content_on_tool_turns') && calls.length > 0;
      case 'reasoning_details':
        return sendBack.includes('reasoning_details');
      case 'extra_content':
        return sendBack.includes('extra_content');
      default:
        return true;
    }
  };
  const echoCallExtras = sendBack.includes('extra_content');
  const entries = Object.entries(m)
    .filter(([key]) => keep(key))
    .map(([key, value]) =>
      key === 'tool_calls' && !echoCallExtras ? [key, (value as AssistantToolCall[]).map(withoutExtra)] : [key, value],
    );
  return Object.fromEntries(entries) as AssistantMessage;
}

// Asked once of every assistant message of a conversation: written not to allocate.
function hasExtras(m: AssistantMessage): boolean {
  for (const key in m) if (EXTRAS.has(key)) return true;
  if (m.tool_calls) for (const c of m.tool_calls) if ('extra_content' in c) return true;
  return false;
}

function withoutExtra(call: AssistantToolCall): AssistantToolCall {
  if (!('extra_content' in call)) return call;
  const { extra_content: _dropped, ...rest } = call;
  return rest;
}
