// What the engine needs from the LLM layer: one generation per AgentTurn (its retries are LlmCalls inside it).
// LlmClient is the real one; tests may pass any object of this shape.
import type { LlmHooks, LlmRequest, LlmResult } from '../llm/types';

export interface LlmPort {
  generate(request: LlmRequest, hooks?: LlmHooks): Promise<LlmResult>;
}
