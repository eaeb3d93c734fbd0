// The prompt guard's working copy of the messages: per-message token estimates kept up to date as steps replace or
// drop messages, and the index of the first message changed (everything before it stays byte-identical).
import { heuristicTokens, type TokenCounter } from '../../llm/tokens';
import type { ChatMessage, ToolSpec } from '../../llm/types';

/**
 * One message's share of `estimatePromptTokens`: its tokens plus one for the separator. Summed with the tools' share
 * it never falls below the estimate the LLM client checks (P4.19), so a draft under budget here is under budget there.
 */
const messageTokens = (tokens: TokenCounter, message: ChatMessage): number => tokens.measure(message) + 1;

export class Draft {
  readonly messages: ChatMessage[];
  private readonly costs: number[];
  private readonly fixed: number;
  private sum: number;
  /** The first index whose message differs from the input, or null while none does. */
  firstChanged: number | null = null;

  constructor(
    messages: readonly ChatMessage[],
    tools: readonly ToolSpec[],
    readonly counter: TokenCounter = heuristicTokens,
  ) {
    this.messages = [...messages];
    this.costs = this.messages.map((m) => messageTokens(counter, m));
    // The tools' share plus the array's brackets.
    this.fixed = (tools.length > 0 ? counter.measure(tools) : 0) + 2;
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
    const costs = items.map((m) => messageTokens(this.counter, m));
    const removed = this.costs.splice(start, count, ...costs);
    this.messages.splice(start, count, ...items);
    this.sum += costs.reduce((a, b) => a + b, 0) - removed.reduce((a, b) => a + b, 0);
    this.firstChanged = this.firstChanged === null ? start : Math.min(this.firstChanged, start);
  }
}
