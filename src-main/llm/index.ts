// The LLM layer's public surface: the client, its error, its types, the token estimate, profiles.
export { LlmClient, type LlmClientOptions } from './client';
export { isLlmError, LlmError, type LlmErrorKind } from './errors';
export { ENV_PROFILE, type LlmProfile, ProfileRegistry } from './profiles';
export { DEFAULT_RETRY, type RetryOptions } from './retry';
export {
  checkTokenLimit,
  estimatePromptTokens,
  estimateTokens,
  heuristicTokens,
  type TokenCounter,
  tokenCounterFor,
} from './tokens';
export type * from './types';
