// A model's list prices, as a profile stores them and the presets carry them (pricing.ts computes with them).
import { z } from 'zod';

/** USD per million tokens; a price past $10,000 per million is a typing error, not a model. */
const PricePerMillion = z.number().finite().min(0).max(10_000);

/**
 * A model's prices in USD per million tokens. `cachedInput` absent: cached prompt tokens are billed as input (a
 * server without a cache discount).
 */
export const ModelPrices = z
  .object({ input: PricePerMillion, cachedInput: PricePerMillion.optional(), output: PricePerMillion })
  .strict();
export type ModelPrices = z.infer<typeof ModelPrices>;
