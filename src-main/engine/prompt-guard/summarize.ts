// Prompt guard step 3 (P4.17): the oldest turns are replaced by ONE user message right after the system message —
// the first user message (the task) kept verbatim when it is small, then a summary of what was replaced. The cut
// falls on an assistant message whose calls are all answered after it, so roles still alternate and pairs stay whole.
import type { TokenCounter } from '../../llm/tokens';
import { type ChatMessage, messageText } from '../../llm/types';
import type { Draft } from './draft';
import { callsById, headWithinTokens, protectedFrom, startsCleanly, turnStarts } from './turns';

/** Makes a summary of the given messages (the engine's asks the LLM). */
export type Summarize = (messages: readonly ChatMessage[]) => Promise<string>;

export const SUMMARY_HEADING = '# Earlier work (summarized)';
const SUMMARY_INTRO =
  'The turns before this point were replaced by this summary to keep the conversation within the context window.';

export interface SummarizeOptions {
  keepTurns: number;
  /** The longest summary kept, in tokens. */
  summaryTokens: number;
  /** The first user message is kept verbatim only up to this size. */
  keptTaskTokens: number;
  summarize: Summarize | undefined;
}

export type SummarizeOutcome =
  | { kind: 'done'; replaced: number; failure?: string }
  | { kind: 'impossible'; reason: string };

export async function summarizeOlderTurns(
  draft: Draft,
  targetTokens: number,
  options: SummarizeOptions,
): Promise<SummarizeOutcome> {
  const { messages } = draft;
  const end = protectedFrom(messages, options.keepTurns);
  const cuts = turnStarts(messages).filter((k) => k >= 2 && k <= end && startsCleanly(messages, k));
  if (cuts.length === 0) return { kind: 'impossible', reason: 'no older turns to summarize' };

  const task = keptTask(messages[1], options.keptTaskTokens, draft.counter);
  // Upper bound of the new message: the kept task, the heading and a summary as long as allowed.
  const newMessageTokens =
    draft.counter.count(`${task}${SUMMARY_HEADING}\n${SUMMARY_INTRO}\n\n`) + options.summaryTokens + 16;
  const before = draft.fixedTokens + draft.costOf(0) + newMessageTokens;
  const cut = cuts.find((k) => before + draft.tokensFrom(k) <= targetTokens) ?? (cuts.at(-1) as number);

  const replaced = messages.slice(1, cut);
  let summary: string;
  let failure: string | undefined;
  try {
    if (!options.summarize) throw new Error('no summarizer is configured');
    summary = (await options.summarize(replaced)).trim();
    if (!summary) throw new Error('the summary came back empty');
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
    summary = mechanicalSummary(replaced, failure);
  }
  if (draft.counter.count(summary) > options.summaryTokens) {
    summary = `${headWithinTokens(summary, options.summaryTokens, draft.counter)} …`;
  }
  draft.splice(1, cut - 1, {
    role: 'user',
    content: `${task}${SUMMARY_HEADING}\n${SUMMARY_INTRO}\n\n${summary}`,
  });
  return failure === undefined
    ? { kind: 'done', replaced: replaced.length }
    : { kind: 'done', replaced: replaced.length, failure };
}

/** The first user message without an earlier summary, with a blank line after it; '' when too big to keep. */
function keptTask(first: ChatMessage | undefined, maxTokens: number, tokens: TokenCounter): string {
  if (first?.role !== 'user') return '';
  const text = messageText(first.content);
  const at = text.indexOf(SUMMARY_HEADING);
  const task = (at >= 0 ? text.slice(0, at) : text).trimEnd();
  return task && tokens.count(task) <= maxTokens ? `${task}\n\n` : '';
}

/** Without a summary from the LLM: which tools were called, so the model does not start over blind. */
export function mechanicalSummary(messages: readonly ChatMessage[], why: string): string {
  const calls = [...callsById(messages).values()].map((c) => `- ${c.name} ${c.arguments.slice(0, 120)}`);
  return [
    `(No summary could be made: ${why}.)`,
    calls.length > 0 ? `Tool calls made in the replaced turns:\n${calls.join('\n')}` : 'No tools were called in them.',
  ].join('\n');
}
