// select_facets { pool, ids, rationale }: the pick of TAKT's dynamic facet selector, made by the step's own model at
// the start of a movement that offers a facet pool (pieces/takt-pools.ts says why a pick and not "all apply"). The
// call — ids and rationale — is recorded like every call (transcript, Activity); its result is the chosen
// candidates' policies and knowledge, in the pool's order. Its checks are TAKT's: only the pool's ids, each once, at
// most max_selected; an empty pick is valid (the step's fixed facets apply alone).
import { z } from 'zod';
import { SELECT_FACETS_TOOL } from '../tools/names';
import { fail, ok } from '../tools/outcome';
import type { ToolDef } from '../tools/types';

const Args = z.strictObject({
  pool: z.string().min(1).describe('The pool this step offers, as its instruction names it.'),
  ids: z.array(z.string().min(1)).max(100).describe('The ids of the candidates this change needs; [] when none does.'),
  rationale: z.string().trim().min(1).max(2000).describe('Why these candidates and not the others, briefly.'),
});

export const selectFacetsTool: ToolDef<z.infer<typeof Args>> = {
  name: SELECT_FACETS_TOOL,
  description:
    "Choose more policies and knowledge for this step from the facet pool its instruction offers: the candidates' ids and why. Their text is the result.",
  parameters: Args,
  readOnly: true,
  // The same arguments mean another pool's candidates in another movement.
  cacheable: false,
  async execute({ pool, ids, rationale }, ctx) {
    const offered = ctx.facetPools ?? [];
    if (offered.length === 0) return fail('this step offers no facet pool; go on with its own facets.');
    const found = offered.find((p) => p.key === pool);
    if (!found) return fail(`this step offers no pool ${pool} (pools: ${offered.map((p) => p.key).join(', ')}).`);
    const known = found.candidates.map((c) => c.id);
    const unknown = ids.filter((id) => !known.includes(id));
    if (unknown.length > 0)
      return fail(`not candidates of ${pool}: ${unknown.join(', ')} (candidates: ${known.join(', ')}).`);
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (twice.length > 0) return fail(`chosen twice: ${[...new Set(twice)].join(', ')}.`);
    if (found.maxSelected !== undefined && ids.length > found.maxSelected)
      return fail(`at most ${found.maxSelected} of ${pool} may be chosen (you chose ${ids.length}).`);
    if (ids.length === 0) return ok(`Nothing chosen from ${pool} (${rationale}): the step's own facets apply.`);
    // The pool's order, not the call's (TAKT appends dynamic facets in candidate order).
    const chosen = found.candidates.filter((c) => ids.includes(c.id));
    const body = chosen.map((c) => `# ${c.id}\n${c.text}`).join('\n\n');
    // The ids and the rationale lead the answer: the step's record (ToolTurn) keeps the choice with its reason.
    const names = chosen.map((c) => c.id).join(', ');
    return ok(`Chosen from ${pool}: ${names} (${rationale}). These apply to this step:\n\n${body}`);
  },
};
