// The prompt guard that runs before every LLM call (spec §3 PGUARD): estimate the prompt against the profile's
// context window minus an answer reserve; while over budget, dedup → compact → summarize (each aiming a little
// below the budget so the next calls need no rewrite); else overflow. It never touches the system message or
// `tools`, keeps every call with its result, and changes the oldest part it must so the prefix before stays cached.
import { estimatePromptTokens, heuristicTokens, type TokenCounter, tokenCounterFor } from '../llm/tokens';
import type { ChatMessage, ToolSpec } from '../llm/types';
import type { LlmPort } from './llm-port';
import { compact } from './prompt-guard/compact';
import { dedup } from './prompt-guard/dedup';
import { Draft } from './prompt-guard/draft';
import { llmSummarizer } from './prompt-guard/llm-summarizer';
import { type Summarize, summarizeOlderTurns } from './prompt-guard/summarize';
import { protectedFrom } from './prompt-guard/turns';

export type { Summarize } from './prompt-guard/summarize';

export type GuardStepName = 'dedup' | 'compact' | 'summarize';

export interface GuardStep {
  step: GuardStepName;
  /** Messages replaced (dedup, compact) or turned into the summary (summarize). */
  messages: number;
  tokensAfter: number;
  /** Set when the summarizer failed and a list of the calls made stands in for its summary. */
  failure?: string;
}

/** What the guard saw and did, for an event: estimates are those of `estimatePromptTokens` (messages + tools). */
export interface GuardReport {
  contextWindow: number;
  reserveTokens: number;
  /** contextWindow − reserveTokens: above it, the guard acts. */
  budgetTokens: number;
  /** What a step aims at once it has to act. */
  targetTokens: number;
  beforeTokens: number;
  afterTokens: number;
  steps: GuardStep[];
  /** The first message index that changed (≥ 1), or null. */
  firstChangedIndex: number | null;
}

export type GuardVerdict =
  | { kind: 'unchanged'; report?: GuardReport }
  | { kind: 'rewrite'; messages: ChatMessage[]; report: GuardReport }
  | { kind: 'overflow'; message: string; report?: GuardReport };

export interface PromptGuard {
  check(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): Promise<GuardVerdict>;
}

export const passThroughGuard: PromptGuard = { check: async () => ({ kind: 'unchanged' }) };

export interface PromptGuardOptions {
  /** The model's context window in tokens; unset: every prompt passes unchanged. */
  contextWindow?: number;
  /** Tokens kept free for the answer; the same as the LLM client's (default 1024). */
  reserveTokens?: number;
  /** A step that has to act reduces to this share of the budget. Default 0.75. */
  targetRatio?: number;
  /** The last turns (assistant message + its results) never compacted or summarized. Default 2. */
  keepTurns?: number;
  /** Head and tail kept of a compacted tool result. Default 1000 and 500 characters. */
  compactHeadChars?: number;
  compactTailChars?: number;
  /** The longest summary, in tokens. Default: an eighth of the budget, at most 1024. */
  summaryTokens?: number;
  /** Makes the summary; without one (or when it fails) a list of the calls made stands in for it. */
  summarize?: Summarize;
  /** The model's tokenizer, the same as the LLM client's. Default: the character heuristic. */
  tokens?: TokenCounter;
}

export function createPromptGuard(options: PromptGuardOptions): PromptGuard {
  const { contextWindow } = options;
  if (contextWindow === undefined) return passThroughGuard;
  const reserveTokens = options.reserveTokens ?? 1024;
  const budgetTokens = contextWindow - reserveTokens;
  const targetTokens = Math.floor(budgetTokens * (options.targetRatio ?? 0.75));
  const keepTurns = options.keepTurns ?? 2;
  const summaryTokens = options.summaryTokens ?? Math.max(64, Math.min(1024, Math.floor(budgetTokens / 8)));
  const tokens = options.tokens ?? heuristicTokens;

  return {
    async check(messages, tools) {
      const beforeTokens = estimatePromptTokens(messages, tools, tokens);
      const report: GuardReport = {
        contextWindow,
        reserveTokens,
        budgetTokens,
        targetTokens,
        beforeTokens,
        afterTokens: beforeTokens,
        steps: [],
        firstChangedIndex: null,
      };
      if (beforeTokens <= budgetTokens) return { kind: 'unchanged', report };

      const draft = new Draft(messages, tools, tokens);
      const exact = () => estimatePromptTokens(draft.messages, tools, tokens);
      const record = (step: GuardStepName, changed: number, failure?: string) => {
        report.afterTokens = exact();
        report.firstChangedIndex = draft.firstChanged;
        report.steps.push({
          step,
          messages: changed,
          tokensAfter: report.afterTokens,
          ...(failure ? { failure } : {}),
        });
      };
      const done = (): GuardVerdict | null =>
        draft.firstChanged !== null && report.afterTokens <= budgetTokens
          ? { kind: 'rewrite', messages: draft.messages, report }
          : null;

      const deduped = dedup(draft, targetTokens);
      if (deduped > 0) record('dedup', deduped);
      const afterDedup = done();
      if (afterDedup) return afterDedup;

      const compacted = compact(draft, targetTokens, {
        keepTurns,
        headChars: options.compactHeadChars ?? 1000,
        tailChars: options.compactTailChars ?? 500,
      });
      if (compacted > 0) record('compact', compacted);
      const afterCompact = done();
      if (afterCompact) return afterCompact;

      const summarized = await summarizeOlderTurns(draft, targetTokens, {
        keepTurns,
        summaryTokens,
        keptTaskTokens: Math.floor(budgetTokens / 4),
        summarize: options.summarize,
      });
      if (summarized.kind === 'done') record('summarize', summarized.replaced, summarized.failure);
      const afterSummary = done();
      if (afterSummary) return afterSummary;

      return { kind: 'overflow', message: overflowMessage(draft.messages, tools, report, keepTurns, tokens), report };
    },
  };
}

/** The guard of a profile: its context window, and a summarizer asking `llm` (a client of the same profile). */
export function profilePromptGuard(
  profile: { model: string; contextWindow?: number } | undefined,
  llm: () => LlmPort,
  reserveTokens = 1024,
): PromptGuard {
  const contextWindow = profile?.contextWindow;
  if (profile === undefined || contextWindow === undefined) return passThroughGuard;
  const tokens = tokenCounterFor(profile.model);
  return createPromptGuard({
    contextWindow,
    reserveTokens,
    tokens,
    summarize: (messages) => llmSummarizer(llm(), { contextWindow, reserveTokens, tokens })(messages),
  });
}

function overflowMessage(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  report: GuardReport,
  keepTurns: number,
  tokens: TokenCounter,
): string {
  const tried = report.steps.map((s) => s.step).join(', ') || 'nothing left to dedup, compact or summarize';
  const system = messages[0] ? tokens.measure(messages[0]) : 0;
  const toolTokens = tools.length > 0 ? tokens.measure(tools) : 0;
  const recent = estimatePromptTokens(messages.slice(protectedFrom(messages, keepTurns)), [], tokens);
  return (
    `context overflow: the prompt is ~${report.afterTokens} tokens (${tried}), over the budget of ${report.budgetTokens} ` +
    `tokens (context window ${report.contextWindow} minus ${report.reserveTokens} reserved for the answer); ` +
    `the system message takes ~${system}, the tools ~${toolTokens}, the last ${keepTurns} turns ~${recent}`
  );
}
