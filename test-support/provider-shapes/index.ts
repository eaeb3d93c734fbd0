// The provider corpus: every stream shape the LLM layer is tested against, one file per server or fault.
import { cutMidToolCall } from './cut-mid-tool-call';
import { deepseek } from './deepseek';
import { gemini } from './gemini';
import { groq } from './groq';
import { inlineThink } from './inline-think';
import { kimiK2Thinking } from './kimi-k2-thinking';
import { llamaCpp, llamaCppTimingsOnly } from './llama-cpp';
import { magistral, mistral } from './mistral';
import { ollama, ollamaOld } from './ollama';
import { openai } from './openai';
import { openrouter } from './openrouter';
import { parallelCalls } from './parallel-calls';
import { repeatedFinish } from './repeated-finish';
import type { ProviderShape } from './shape';
import { errorFrame, finishReasonError, openrouterMidStreamError, vllmErrorObject } from './stream-errors';
import { vllm } from './vllm';
import { xai } from './xai';

export type { ExpectedCall, ProviderShape, ShapeOutcome } from './shape';
export { WEATHER_TOOL } from './shape';

export const PROVIDER_SHAPES: readonly ProviderShape[] = [
  openai,
  openrouter,
  deepseek,
  kimiK2Thinking,
  gemini,
  ollama,
  ollamaOld,
  llamaCpp,
  llamaCppTimingsOnly,
  vllm,
  groq,
  xai,
  mistral,
  magistral,
  inlineThink,
  parallelCalls,
  repeatedFinish,
  errorFrame,
  vllmErrorObject,
  openrouterMidStreamError,
  finishReasonError,
  cutMidToolCall,
];
