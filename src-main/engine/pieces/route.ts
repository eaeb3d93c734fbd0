// Where a routed movement goes (TAKT's when() rules, structured_output and system steps): decided by the engine from
// the structured results, never by the model. An agent movement's result is its `complete` message (a JSON object
// checked against its schema when it has one); a system movement has none of its own and reads earlier results.
import { readResult } from './result-schema';
import type { MovementDefinition, RouteDefinition } from './schema';
import { evaluateWhen } from './when-expr';

export type RouteRule = RouteDefinition['rules'][number];
export type RouteDecision = { ok: true; rule: RouteRule; value?: unknown } | { ok: false; message: string };

/**
 * The first rule of `movement`'s route that holds, over `results` (by movement name) and — for an agent movement —
 * its own result `text`. Nothing is recorded here: the caller keeps `value` once the decision is accepted.
 */
export function decideRoute(
  movement: MovementDefinition,
  results: ReadonlyMap<string, unknown>,
  text: string | null,
): RouteDecision {
  const route = movement.route as RouteDefinition;
  let own: { value: unknown } | null = null;
  if (text !== null && route.schema) {
    const read = readResult(text, route.schema);
    if (!read.ok) return read;
    own = { value: read.value };
  }
  const lookup = (step: string) => {
    const name = route.results[step];
    if (name === undefined) return undefined;
    if (own && name === movement.name) return own.value;
    return results.get(name);
  };
  const rule = route.rules.find((r) => evaluateWhen(r.when, lookup));
  if (!rule) {
    const tried = route.rules.map((r) => `when(${r.source})`).join(', ');
    return { ok: false, message: `no rule of ${movement.name} holds for this result (rules: ${tried})` };
  }
  return own ? { ok: true, rule, value: own.value } : { ok: true, rule };
}
