// What an LlmCall cost, from a model's prices per million tokens: the one place $ is computed (main sums it into the
// usage roll-up, the renderer shows it and the profile form names a preset's price). Exact integer arithmetic in
// picodollars, so sums never drift; a model without a price has no cost, never $0.
import { effectiveKind, type ProviderKind } from './contract/profiles';
import type { ModelPrices } from './model-prices';
import { PRESET_PRICES } from './preset-prices';

export { ModelPrices } from './model-prices';

export interface TokenCounts {
  promptTokens: number;
  completionTokens: number;
  /** The part of promptTokens the server read from its cache. */
  cachedPromptTokens: number;
}

/** Picodollars per token of a price per million tokens: exact for prices of up to six decimals. */
function picosPerToken(pricePerMillion: number): bigint {
  return BigInt(Math.round(pricePerMillion * 1_000_000));
}

/** An LlmCall's cost in picodollars (10⁻¹² USD): uncached prompt at input, cached prompt at cachedInput, output. */
export function callCostPicos(prices: ModelPrices, tokens: TokenCounts): bigint {
  const cached = Math.min(Math.max(tokens.cachedPromptTokens, 0), Math.max(tokens.promptTokens, 0));
  const uncached = Math.max(tokens.promptTokens, 0) - cached;
  return (
    BigInt(uncached) * picosPerToken(prices.input) +
    BigInt(cached) * picosPerToken(prices.cachedInput ?? prices.input) +
    BigInt(Math.max(tokens.completionTokens, 0)) * picosPerToken(prices.output)
  );
}

/**
 * A sum of costs that stays unknown once one part is unknown: a total missing a call's price would be a wrong figure.
 * A call that spent no token costs nothing whatever its model (a refused request is not "unpriced").
 */
export class CostSum {
  private picos = 0n;
  private unknown = false;

  add(prices: ModelPrices | null, tokens: TokenCounts): this {
    if (tokens.promptTokens + tokens.completionTokens <= 0) return this;
    if (prices === null) this.unknown = true;
    else this.picos += callCostPicos(prices, tokens);
    return this;
  }

  /** USD, or null when a part had no price. */
  get usd(): number | null {
    return this.unknown ? null : picosToUsd(this.picos);
  }
}

/** Picodollars as USD: whole micro-dollars exactly, the rest as a fraction (display rounds far above float error). */
export function picosToUsd(picos: bigint): number {
  return Number(picos / 1_000_000n) / 1_000_000 + Number(picos % 1_000_000n) / 1e12;
}

/** The profile fields prices depend on. */
export interface PricedProfile {
  kind?: ProviderKind | undefined;
  baseURL: string;
  model: string;
  prices?: ModelPrices | undefined;
}

/**
 * The prices of `model` as served by `profile`: the profile's own when they are for that model (it is the profile's
 * model), else its provider's preset, else null (unknown: tokens only).
 */
export function pricesFor(profile: PricedProfile | undefined, model: string): ModelPrices | null {
  if (!profile) return null;
  if (profile.prices && profile.model === model) return profile.prices;
  return presetPrices(effectiveKind(profile), model)?.prices ?? null;
}

/** A preset's price of a model, with where it was read and when. */
export function presetPrices(
  kind: ProviderKind,
  model: string,
): { prices: ModelPrices; source: string; checked: string } | null {
  const table = PRESET_PRICES[kind];
  const prices = table?.models[model];
  return table && prices ? { prices, source: table.source, checked: table.checked } : null;
}

/**
 * USD for people: cents from a cent up, two significant digits below (a call often costs a fraction of a cent), never
 * a rounded-away "$0.00" for a cost that is not zero.
 */
export function formatUsd(usd: number, locale?: string): string {
  const small = usd > 0 && usd < 0.01;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    ...(small ? { maximumSignificantDigits: 2 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  }).format(usd);
}
