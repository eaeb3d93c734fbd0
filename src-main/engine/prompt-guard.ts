// The prompt guard hook that runs before every LLM call. Estimation, dedup, compaction and summarising arrive with
// the tools issue; this guard passes every prompt through unchanged, behind the interface the loop calls.
import type { ChatMessage, ToolSpec } from '../llm/types';

export type GuardVerdict =
  | { kind: 'unchanged' }
  | { kind: 'rewrite'; messages: ChatMessage[] }
  | { kind: 'overflow'; message: string };

export interface PromptGuard {
  check(messages: readonly ChatMessage[], tools: readonly ToolSpec[]): GuardVerdict;
}

export const passThroughGuard: PromptGuard = { check: () => ({ kind: 'unchanged' }) };
