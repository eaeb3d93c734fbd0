// An MCP server's `sampling/createMessage`, answered by the task's own LLM profile through the SDK set up as the
// engine's client sets it up (oneOffSdk: no SDK retries, the profile's headers, the reply metered and bounded). What
// the server sends is untrusted text to the model like any tool result: it goes as the messages it is, never merged
// into the job's conversation, and the reply goes back to the server only. Images and audio are named, not sent; a
// request with tools is refused (the client does not declare sampling tools).
import { meteredFetch, meteredRequest, ReplyMeter } from '../llm/metered-fetch';
import type { LlmProfile } from '../llm/profiles';
import { oneOffSdk } from '../llm/sdk';

/** The parts of `sampling/createMessage`'s params read here. */
export interface SamplingParams {
  messages: { role: 'user' | 'assistant'; content: unknown }[];
  systemPrompt?: string;
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  tools?: unknown[];
  toolChoice?: unknown;
}

export interface SamplingResult {
  [key: string]: unknown;
  model: string;
  role: 'assistant';
  content: { type: 'text'; text: string };
  stopReason?: string;
}

/** A server may ask for more; the model is asked for at most this many tokens. */
export const SAMPLING_MAX_TOKENS = 8192;
export const SAMPLING_TIMEOUT_MS = 120_000;
const REPLY_LIMITS = { maxReplyBytes: 1024 * 1024, maxToolArgumentBytes: 16 * 1024, maxCallSeconds: 120 };
const SUMMARY_MAX = 4000;

/** One content block (or a list of them) as text: text as it is, anything else named by its type. */
function blockText(content: unknown): string {
  if (Array.isArray(content)) return content.map(blockText).join('\n');
  if (typeof content !== 'object' || content === null) return '';
  const block = content as { type?: unknown; text?: unknown; mimeType?: unknown };
  if (block.type === 'text' && typeof block.text === 'string') return block.text;
  const mime = typeof block.mimeType === 'string' ? ` ${block.mimeType}` : '';
  return `[${String(block.type ?? 'content')}${mime}]`;
}

/** What the card shows of a request: its system prompt and messages as text, cut to a readable length. */
export function samplingSummary(params: SamplingParams): string {
  const lines = [
    ...(params.systemPrompt ? [`system: ${params.systemPrompt}`] : []),
    ...params.messages.map((m) => `${m.role}: ${blockText(m.content)}`),
  ];
  const text = lines.join('\n\n');
  return text.length <= SUMMARY_MAX ? text : `${text.slice(0, SUMMARY_MAX)}\n… (${text.length} characters)`;
}

const stopReasonOf = (finish: string | null | undefined): string | undefined =>
  finish === 'stop' ? 'endTurn' : finish === 'length' ? 'maxTokens' : (finish ?? undefined);

/** Asks the profile's model; throws with the reason (the key cut out) when it cannot answer. */
export async function sampleWith(
  profile: LlmProfile,
  params: SamplingParams,
  signal: AbortSignal,
): Promise<SamplingResult> {
  const sdk = oneOffSdk(profile, SAMPLING_TIMEOUT_MS, { fetch: meteredFetch() });
  try {
    const completion = await sdk.chat.completions.create(
      {
        model: profile.model,
        messages: [
          ...(params.systemPrompt ? [{ role: 'system' as const, content: params.systemPrompt }] : []),
          ...params.messages.map((m) => ({ role: m.role, content: blockText(m.content) })),
        ],
        max_tokens: Math.max(1, Math.min(params.maxTokens, SAMPLING_MAX_TOKENS)),
        ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
        ...(params.stopSequences?.length ? { stop: params.stopSequences.slice(0, 4) } : {}),
        stream: false,
      },
      { signal, fetchOptions: meteredRequest(new ReplyMeter(REPLY_LIMITS)) },
    );
    const choice = completion.choices?.[0];
    const text = choice?.message?.content;
    if (typeof text !== 'string') throw new Error('the model answered no text');
    const stopReason = stopReasonOf(choice?.finish_reason);
    return {
      model: typeof completion.model === 'string' && completion.model ? completion.model : profile.model,
      role: 'assistant',
      content: { type: 'text', text },
      ...(stopReason ? { stopReason } : {}),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(profile.apiKey ? message.split(profile.apiKey).join('[redacted]') : message);
  }
}
