// The list prices the provider presets carry, per model id as the provider's API names it, each table with the page
// it was read from and the day it was checked. A model missing here has no price (tokens only) until its profile
// sets one. Only prices found in a dated source are here; a kind without a table has none.
import type { ProviderKind } from './contract/profiles';
import type { ModelPrices } from './model-prices';

export interface PresetPriceTable {
  /** The page the prices were read from. */
  source: string;
  /** The day they were checked against it (YYYY-MM-DD). */
  checked: string;
  models: Readonly<Record<string, ModelPrices>>;
}

/**
 * Not here, and why:
 * - DeepSeek: the pages found price by time of day (peak and off-peak) since the V4 models, which one price per
 *   token cannot say; the official page's copy found was of the retired V3.1 prices.
 * - OpenRouter: each model's price is the upstream provider's, and changes with routing.
 * - Moonshot, Gemini, Mistral: no dated source was found in time; a profile can set its own.
 * - Local servers (llama.cpp, Ollama, LM Studio, vLLM): no list price; a profile can set its own (0 included).
 */
export const PRESET_PRICES: Partial<Record<ProviderKind, PresetPriceTable>> = {
  // The page's table is "as of June 2026", from developers.openai.com/api/docs/pricing; gpt-5.4 and gpt-5.4-mini
  // agree with adk-model 0.6.0's table (March 2026).
  openai: {
    source: 'https://www.morphllm.com/openai-api-pricing',
    checked: '2026-12-02',
    models: {
      'gpt-5.5': { input: 5, cachedInput: 0.5, output: 30 },
      'gpt-5.4': { input: 2.5, cachedInput: 0.25, output: 15 },
      'gpt-5.4-mini': { input: 0.75, cachedInput: 0.075, output: 4.5 },
      'gpt-5.4-nano': { input: 0.2, cachedInput: 0.02, output: 1.25 },
    },
  },
  // aicost 0.2.4's Groq table; gpt-oss-120b's $0.15/$0.60 is what braintrust-proxy issue #925 read on groq.com/pricing.
  // Groq caches prompts of gpt-oss only; the Llama models' cached tokens (none reported) would bill as input.
  groq: {
    source: 'https://docs.rs/crate/aicost/latest/source/src/data/data_groq.rs',
    checked: '2026-12-02',
    models: {
      'openai/gpt-oss-120b': { input: 0.15, cachedInput: 0.075, output: 0.6 },
      'llama-3.3-70b-versatile': { input: 0.59, output: 0.79 },
      'llama-3.1-8b-instant': { input: 0.05, output: 0.08 },
    },
  },
};
