// What the model reads of one TAKT step: its persona, and its instruction with its knowledge, policies, facet pool,
// quality gates, completion check, companions and reports — each facet resolved to its text, or an error at its field.

import { SELECT_FACETS_TOOL } from '../../tools/names';
import type { FacetKind } from './takt-facets';
import { TaktError, type TaktFiles } from './takt-files';
import { companionText, resolveCompanions, resolvePool } from './takt-pools';
import type { TaktStep } from './takt-schema';
import { fromFragments, type Prepared, type Scope } from './takt-scope';

export function stepText(files: TaktFiles, scope: Scope, prepared: Prepared, part: string | null): StepText {
  const { step } = prepared;
  const facet = (kind: FacetKind, field: string, refs: string | string[] | undefined) =>
    facetTexts(files, prepared, [field], () => scope.facets.texts(kind, refs));
  const persona = facet('personas', 'persona', step.persona).join('\n\n');
  const text = facet('instructions', 'instruction', step.instruction ?? step.instruction_template).join('\n\n');
  // pass_previous_response: false — the step does not get the previous output in its instruction.
  const instruction = step.pass_previous_response === false ? text.replaceAll('{previous_response}', '') : text;
  const knowledge = facet('knowledge', 'knowledge', step.knowledge);
  const policies = facet('policies', 'policy', step.policy);
  const gates = step.quality_gates ?? [];
  const pool = step.dynamic_facets ? poolOf(files, scope, prepared, part, [...knowledge, ...policies]) : null;
  const companions = facetTexts(files, prepared, ['companion'], () => {
    const found = resolveCompanions(files, scope.rel, step.companion, {
      ...prepared.at,
      path: [...prepared.at.path, 'companion'],
    });
    return found ? [companionText(found)] : [];
  });
  const body = [
    knowledge.length > 0 ? `## Knowledge\n${knowledge.join('\n\n---\n\n')}` : '',
    instruction,
    policies.length > 0 ? `## Policy\n${policies.join('\n\n---\n\n')}` : '',
    pool
      ? poolText(
          pool,
          facetTexts(files, prepared, ['dynamic_facets', 'selector'], () => selectorText(scope, step)),
        )
      : '',
    gates.length > 0 ? `## Before you finish\n${gates.map((g) => `- ${g}`).join('\n')}` : '',
    completionCheck(files, scope, prepared),
    ...companions,
  ]
    .filter(Boolean)
    .join('\n\n');
  return { persona, body, pools: pool ? [pool] : [] };
}

/**
 * TAKT's completion_retry: a fresh judge checks the result against the step's instruction, task, scope, evidence and
 * report, and an incomplete one goes back to the step with the retry instruction. Here the step's model does that
 * check before it ends the step, with the same retry instruction for what it finds missing.
 */
function completionCheck(files: TaktFiles, scope: Scope, prepared: Prepared): string {
  const retry = prepared.step.completion_retry ?? prepared.step.review_completion;
  if (!retry) return '';
  const field = prepared.step.completion_retry ? 'completion_retry' : 'review_completion';
  const text = facetTexts(files, prepared, [field, 'retry_instruction'], () =>
    scope.facets.texts('instructions', retry.retry_instruction),
  ).join('\n\n');
  return `## Before you end: is the result complete?\nCheck your result against this step's instruction, the task, its scope, its evidence and its report. If something they ask for is missing, close the gap this way, then check again:\n\n${text}`;
}

type PoolFile = {
  key: string;
  pool: string;
  max_selected?: number;
  candidates: { id: string; description: string; text: string }[];
};

/** The step's facet pool as the movement carries it; a facet the step already has is not offered again. */
function poolOf(files: TaktFiles, scope: Scope, prepared: Prepared, part: string | null, fixed: string[]): PoolFile {
  const spec = prepared.step.dynamic_facets as NonNullable<TaktStep['dynamic_facets']>;
  const at = { ...prepared.at, path: [...prepared.at.path, 'dynamic_facets', 'pool'] };
  const resolved = facetTexts(files, prepared, ['dynamic_facets', 'pool'], () =>
    resolvePool(files, scope.rel, scope.workflow, scope.facets, spec.pool, at),
  );
  if (spec.max_selected !== undefined && spec.max_selected > resolved.candidates.length) {
    throw new TaktError(
      `max_selected ${spec.max_selected} is more than the pool's ${resolved.candidates.length} candidates`,
      { ...prepared.at, path: [...prepared.at.path, 'dynamic_facets', 'max_selected'] },
    );
  }
  const have = new Set(fixed);
  const candidates = resolved.candidates.map((c) => {
    const text = [
      c.policies.filter((t) => !have.has(t)).length > 0
        ? `## Policy\n${c.policies.filter((t) => !have.has(t)).join('\n\n---\n\n')}`
        : '',
      c.knowledge.filter((t) => !have.has(t)).length > 0
        ? `## Knowledge\n${c.knowledge.filter((t) => !have.has(t)).join('\n\n---\n\n')}`
        : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    return {
      id: c.id,
      description: c.description,
      text: text || '(Everything of this candidate is already in the step.)',
    };
  });
  return {
    key: part ? `${part}.${spec.pool}` : spec.pool,
    pool: spec.pool,
    ...(spec.max_selected !== undefined ? { max_selected: spec.max_selected } : {}),
    candidates,
  };
}

/** The selector guidance (`dynamic_facets.selector`): how this step wants its facets chosen. */
function selectorText(scope: Scope, step: TaktStep): string[] {
  const selector = step.dynamic_facets?.selector;
  if (!selector) return [];
  const persona = selector.persona ? scope.facets.texts('personas', selector.persona) : [];
  return [...persona, ...scope.facets.texts('instructions', selector.instruction)];
}

function poolText(pool: PoolFile, guidance: string[]): string {
  const most = pool.max_selected !== undefined ? `, at most ${pool.max_selected}` : '';
  const lines = pool.candidates.map((c) => `- \`${c.id}\`: ${c.description}`);
  return [
    `## More facets (pool ${pool.key})`,
    `Before you start the work, call \`${SELECT_FACETS_TOOL}\` with pool "${pool.key}", the ids of the candidates below that this change needs (an empty list when none does${most}) and your rationale. The policies and knowledge of those you choose come back as its result and apply to this step with the ones above.`,
    ...guidance,
    lines.join('\n'),
  ].join('\n\n');
}

/** `read()`'s facet texts; a facet that resolves to nothing is an error at the step's `field`. */
export function facetTexts<T = string[]>(files: TaktFiles, prepared: Prepared, field: string[], read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof TaktError) || error.at) throw error;
    const from = fromFragments(files, prepared.fragments);
    throw new TaktError(`${error.message}${from}`, { ...prepared.at, path: [...prepared.at.path, ...field] });
  }
}

export function reportsOf(scope: Scope, prepared: Prepared): { name: string; format: string }[] {
  const { step, at } = prepared;
  return (step.output_contracts?.report ?? []).map((entry, i) => {
    const where = { ...at, path: [...at.path, 'output_contracts', 'report', i] };
    if (typeof entry.name === 'string') {
      const e = entry as { name: string; format?: string; order?: string };
      try {
        const format = e.format ? scope.facets.text('output-contracts', e.format) : '';
        const order = e.order ? scope.facets.text('output-contracts', e.order) : '';
        return { name: e.name, format: [order, format].filter(Boolean).join('\n\n') };
      } catch (error) {
        if (error instanceof TaktError && !error.at) throw new TaktError(error.message, where);
        throw error;
      }
    }
    const [label, file] = Object.entries(entry)[0] ?? [];
    if (typeof file !== 'string') throw new TaktError('a report names its file', where);
    return { name: file, format: `(${label})` };
  });
}

export interface StepText {
  persona: string;
  body: string;
  pools: PoolFile[];
}

export function reportsText(reports: { name: string; format: string }[]): string {
  if (reports.length === 0) return '';
  const each = reports.map((r) => `### ${r.name}\n${r.format}`.trim()).join('\n\n');
  return `## Reports\nEnd this step with ${reports.length > 1 ? 'these reports, one after another,' : 'this report'} in the \`reason\` of your \`transition\` call (or in the \`message\` of \`complete\`):\n\n${each}`;
}
