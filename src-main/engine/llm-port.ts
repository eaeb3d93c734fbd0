// What the engine needs from the LLM layer: one generation per AgentTurn (its retries are LlmCalls inside it).
// LlmClient is the real one; tests may pass any object of this shape.
import type { MediaKind } from '../../src-shared/contract/profiles';
import type { LlmHooks, LlmRequest, LlmResult } from '../llm/types';

export interface LlmPort {
  generate(request: LlmRequest, hooks?: LlmHooks): Promise<LlmResult>;
  /** What the model takes besides text (its profile's `media`); absent: text only. */
  readonly media?: readonly MediaKind[];
}
