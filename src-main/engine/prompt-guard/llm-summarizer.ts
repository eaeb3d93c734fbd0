// The summarizer the engine gives the prompt guard: one generation without tools over a plain-text rendering of the
// turns to replace, bounded to fit the profile's context window itself.
import { heuristicTokens, type TokenCounter } from '../../llm/tokens';
import { type ChatMessage, messageText } from '../../llm/types';
import type { LlmPort } from '../llm-port';
import type { Summarize } from './summarize';
import { safeSlice } from './turns';

export const SUMMARIZER_SYSTEM = `You summarize the earlier part of an AI agent's work on a task so that the agent can go on without it.
Write a concise summary in plain text: the task's goal and constraints, what has been done (files read or changed,
commands run and their outcomes), facts learned, decisions made, open problems and the next steps.
Keep file paths, names, numbers and error messages exact. Do not address the agent; no preamble.`;

export interface LlmSummarizerOptions {
  contextWindow?: number;
  /** Tokens kept free for the summary itself. Default 1024. */
  reserveTokens?: number;
  /** The profile's tokenizer. Default: the character heuristic. */
  tokens?: TokenCounter;
}

/** Caps per message, tried from the most generous down until the rendering fits. */
const CAPS = [4000, 1200, 300, 80];

export function llmSummarizer(llm: LlmPort, options: LlmSummarizerOptions = {}): Summarize {
  const reserve = options.reserveTokens ?? 1024;
  const tokens = options.tokens ?? heuristicTokens;
  const room =
    options.contextWindow === undefined
      ? Number.POSITIVE_INFINITY
      : options.contextWindow - reserve - tokens.count(SUMMARIZER_SYSTEM) - 64;
  return async (messages) => {
    if (room <= 0) throw new Error('the context window leaves no room to summarize');
    const reply = await llm.generate({
      messages: [
        { role: 'system', content: SUMMARIZER_SYSTEM },
        { role: 'user', content: renderForSummary(messages, room, tokens) },
      ],
      tools: [],
    });
    return reply.text;
  };
}

/** The messages as text within `maxTokens`: long parts cut to head and tail, then the middle of the whole. */
export function renderForSummary(
  messages: readonly ChatMessage[],
  maxTokens: number,
  tokens: TokenCounter = heuristicTokens,
): string {
  let text = '';
  for (const cap of CAPS) {
    text = messages.map((m) => renderMessage(m, cap)).join('\n\n');
    if (tokens.count(text) <= maxTokens) return text;
  }
  // A character is usually at most one token; characters a BPE splits further shrink both ends until it fits.
  for (let head = Math.floor(maxTokens * 0.4), tail = maxTokens - head - 40; ; head *= 0.8, tail *= 0.8) {
    const ends = `${safeSlice(text, 0, Math.floor(head))}\n[… middle omitted …]\n${safeSlice(text, text.length - Math.max(0, Math.floor(tail)), text.length)}`;
    if (tokens.count(ends) <= maxTokens || head < 1) return ends;
  }
}

function renderMessage(m: ChatMessage, cap: number): string {
  switch (m.role) {
    case 'system':
      return `SYSTEM: ${cut(m.content, cap)}`;
    case 'user':
      return `USER: ${cut(messageText(m.content), cap)}`;
    case 'assistant': {
      const calls = (m.tool_calls ?? []).map((c) => `\nCALL ${c.function.name} ${cut(c.function.arguments, cap / 4)}`);
      return `ASSISTANT: ${cut(m.content ?? '', cap)}${calls.join('')}`;
    }
    case 'tool':
      return `RESULT of ${m.tool_call_id}: ${cut(m.content, cap)}`;
  }
}

function cut(text: string, cap: number): string {
  if (text.length <= cap) return text;
  const head = Math.floor(cap * 0.7);
  const tail = Math.floor(cap * 0.3);
  return `${safeSlice(text, 0, head)} […${text.length - head - tail} chars…] ${safeSlice(text, text.length - tail, text.length)}`;
}
