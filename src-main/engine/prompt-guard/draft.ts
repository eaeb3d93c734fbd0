// The prompt guard's working copy of the messages: per-message token estimates kept up to date as steps replace or
// drop messages, and the index of the first message changed (everything before it stays byte-identical).
import { estimateTokens } from '../../llm/tokens';
import type { ChatMessage, ToolSpec } from '../../llm/types';

/**
 * One message's share of `estimatePromptTokens`: its JSON plus one for the separator. Summed with `fixedTokens` it
 * never falls below the whole-array estimate the LLM client checks (P4.19), so a draft under budget here is under
 * budget there.
 */
export const messageTokens = (message: ChatMessage): number => estimateTokens(JSON.stringify(message)) + 1;

/** The tools' share plus the array's brackets. */
export const fixedTokens = (tools: readonly ToolSpec[]): number =>
  (tools.length > 0 ? estimateTokens(JSON.stringify(tools)) : 0) + 2;

export class Draft {
  readonly messages: ChatMessage[];
  private readonly costs: number[];
  private readonly fixed: number;
  private sum: number;
  /** The first index whose message differs from the input, or null while none does. */
  firstChanged: number | null = null;

  constructor(messages: readonly ChatMessage[], tools: readonly ToolSpec[]) {
    this.messages = [...messages];
    this.costs = this.messages.map(messageTokens);
    this.fixed = fixedTokens(tools);
    this.sum = this.costs.reduce((a, b) => a + b, 0);
  }

  /** An upper bound of the prompt estimate of the current messages with the tools. */
  get tokens(): number {
    return this.fixed + this.sum;
  }

  /** Tokens of the messages from `index` on. */
  tokensFrom(index: number): number {
    let total = 0;
    for (let i = index; i < this.costs.length; i++) total += this.costs[i] as number;
    return total;
  }

  costOf(index: number): number {
    return this.costs[index] ?? 0;
  }

  get fixedTokens(): number {
    return this.fixed;
  }

  replace(index: number, message: ChatMessage): void {
    this.splice(index, 1, message);
  }

  /** Replaces `count` messages at `start` by `items`. */
  splice(start: number, count: number, ...items: ChatMessage[]): void {
    const costs = items.map(messageTokens);
    const removed = this.costs.splice(start, count, ...costs);
    this.messages.splice(start, count, ...items);
    this.sum += costs.reduce((a, b) => a + b, 0) - removed.reduce((a, b) => a + b, 0);
    this.firstChanged = this.firstChanged === null ? start : Math.min(this.firstChanged, start);
  }
}
