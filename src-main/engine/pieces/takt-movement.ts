// One TAKT step as a MAESTRO movement: the persona (system-style guidance), the instruction with its knowledge,
// policies, quality gates and reports, the rules as the model reads them (all()/any() spelled out), the tools and the
// edit permission. A parallel step's parts become one movement that does them in turn.

import { SELECT_FACETS_TOOL } from '../../tools/names';
import type { FacetKind, Facets } from './takt-facets';
import { TaktError, type TaktFiles } from './takt-files';
import { companionText, resolveCompanions, resolvePool } from './takt-pools';
import type { TaktRule, TaktStep, TaktWorkflow } from './takt-schema';
import { inspectTools, partStep, teamLeaderBody } from './takt-team-leader';
import { stepPermissions } from './takt-tools';
import { parseWhen, whenInner } from './when-expr';

export type Target =
  | { kind: 'movement'; name: string }
  | { kind: 'complete' }
  | { kind: 'abort'; why?: string }
  | { kind: 'ask'; then?: Target };
export type Exits = Record<string, Target>;
export type At = { rel: string; path: (string | number)[] };

export interface Prepared {
  name: string;
  step: TaktStep;
  at: At;
  /** The fragment files the step came from (`uses`). */
  fragments: string[];
  call?: Scope;
  parts?: { fixed: Prepared[]; pool: Prepared[] };
}

export interface Scope {
  rel: string;
  workflow: TaktWorkflow;
  facets: Facets;
  prefix: string;
  steps: Prepared[];
  initial: string;
  vars: Readonly<Record<string, string | number | boolean>>;
  /** `all_steps.rules` in force here: the calling workflows' first, then this one's. */
  rules: readonly WorkflowRule[];
}

export interface WorkflowRule {
  position: 'after_execution_rules' | 'before_instruction';
  text: string;
}

/** " (from <fragment file> → …)" for a step that came from fragments, else ''. */
export const fromFragments = (files: TaktFiles, fragments: string[]) =>
  fragments.length > 0 ? ` (from ${fragments.map((f) => files.show(f)).join(' → ')})` : '';

/** The MAESTRO movement of a step (or of a parallel step's parts, or of a loop check's judge). */
export function composeMovement(
  files: TaktFiles,
  scope: Scope,
  prepared: Prepared,
  rules: TaktRule[],
  targets: (Target | null)[],
  lead?: string,
) {
  const { step, at } = prepared;
  const name = `${scope.prefix}${prepared.name}`;
  const route = routeOf(files, scope, prepared, rules, targets);
  if (step.kind === 'system' || step.mode === 'system') {
    // No agent: the engine enters it, evaluates its rules and goes on (routeOf has checked they are all when()).
    return { name, description: step.description ?? '', tools: [], edit: false, transitions: [], route };
  }
  const parts = prepared.parts ? [...prepared.parts.fixed, ...prepared.parts.pool] : [prepared];
  // A part that calls a workflow does that workflow's parts (read in its own scope: its facets, pools, reports).
  const leaves = parts.flatMap((p) =>
    p.call ? calledParts(p).map((q) => ({ p: q, scope: p.call as Scope })) : [{ p, scope }],
  );
  const leafTexts = leaves.map((l) => stepText(files, l.scope, l.p, prepared.parts ? l.p.name : null));
  const textOf = (p: Prepared) => leafTexts[leaves.findIndex((l) => l.p === p)] as StepText;
  const texts = leafTexts;
  // A team leader's tools and edit are its parts' (the leader itself plans without tools).
  const permissions = leaves.map(({ p, scope: s }) =>
    permissionsOf(files, s, p.step.team_leader ? { ...p, step: partStep(p.step, p.step.team_leader) } : p),
  );
  let guidance: string;
  let body: string;
  if (prepared.parts) {
    const { fixed, pool } = prepared.parts;
    guidance = leaves
      .map(({ p }, i) => (texts[i]?.persona ? `## Part ${p.name}\n${texts[i]?.persona}` : ''))
      .filter(Boolean)
      .join('\n\n');
    const leaf = (p: Prepared, level: string) => {
      const t = textOf(p);
      const verdicts = (p.step.rules ?? []).flatMap((r) => (r.condition ? [`"${r.condition}"`] : []));
      const end = verdicts.length > 0 ? `\n\nEnd this part with its verdict, one of: ${verdicts.join(', ')}.` : '';
      const about = p.step.description ? ` — ${p.step.description}` : '';
      return `${level} Part ${p.name}${about}\n${t.body}${end}`.trim();
    };
    const part = (p: Prepared) => (p.call ? calledPartText(p, leaf) : leaf(p, '##'));
    const names = fixed.map((p) => p.name).join(', ');
    const intro =
      fixed.length > 1
        ? `This step has ${fixed.length} parts (${names}). Do them one after another, in this order, each as its own part.`
        : fixed.length === 1
          ? `This step has 1 part (${names}).`
          : '';
    const choose =
      pool.length > 0
        ? `Of the following parts, do only those that this change needs (judge by their description), and say which you chose and why.`
        : '';
    body = [intro, ...fixed.map(part), choose, ...pool.map(part)].filter(Boolean).join('\n\n');
  } else if (step.team_leader) {
    const leader = step.team_leader;
    const own = texts[0] as StepText;
    const persona = (ref: string, field: string) =>
      facetTexts(files, prepared, ['team_leader', field], () => scope.facets.texts('personas', ref));
    const leadPersona = leader.persona ? persona(leader.persona, 'persona').join('\n\n') : own.persona;
    const worker = leader.part_persona ? persona(leader.part_persona, 'part_persona').join('\n\n') : own.persona;
    const separate = worker !== '' && worker !== leadPersona;
    guidance = [leadPersona, separate ? `## Part worker\n${worker}` : ''].filter(Boolean).join('\n\n');
    body = teamLeaderBody(leader, own.body, separate, (permissions[0] as { edit: boolean }).edit);
  } else {
    guidance = texts[0]?.persona ?? '';
    body = texts[0]?.body ?? '';
  }
  const reports = leaves.flatMap((l) => reportsOf(l.scope, l.p));
  const partList = prepared.parts ? parts : null;
  const ruleText = route ? resultText(route.schema) : rulesText(rules, targets, partList, at);
  const gitRule = step.allow_git_commit ? '' : 'Do not run git add, git commit or git push in this step.';
  // Workflow-wide rules reach the agent steps, not a loop check's judge (TAKT: not status routing).
  const wide = (position: WorkflowRule['position']) =>
    lead === undefined ? scope.rules.filter((r) => r.position === position).map((r) => r.text) : [];
  const instruction = [
    lead ?? '',
    ...wide('before_instruction'),
    body,
    reportsText(reports),
    gitRule,
    ...wide('after_execution_rules'),
    ruleText,
  ]
    .filter(Boolean)
    .join('\n\n');
  checkPlaceholders(instruction, at);
  const transitions: { to: string; when: string }[] = [];
  targets.forEach((t, i) => {
    if (route) return;
    const to = t?.kind === 'movement' ? t.name : t?.kind === 'ask' && t.then?.kind === 'movement' ? t.then.name : null;
    if (!to) return;
    const when = condition(rules[i] as TaktRule, partList, at);
    const same = transitions.find((x) => x.to === to);
    if (same) same.when = `${same.when}; or ${when}`;
    else transitions.push({ to, when });
  });
  const leaderTools = step.team_leader ? inspectTools(step.team_leader) : [];
  const pools = texts.flatMap((t) => t.pools);
  const tools = permissions.some((p) => p.tools === null)
    ? null
    : [
        ...new Set([
          ...permissions.flatMap((p) => p.tools ?? []),
          ...leaderTools,
          ...(pools.length > 0 ? [SELECT_FACETS_TOOL] : []),
        ]),
      ];
  return {
    name,
    description: step.description ?? '',
    guidance: vars(scope, guidance),
    instruction: vars(scope, instruction),
    reports: reports.map((r) => r.name),
    ...(tools ? { tools } : {}),
    edit: permissions.some((p) => p.edit),
    transitions,
    ...(pools.length > 0 ? { facet_pools: pools } : {}),
    ...(route ? { route } : {}),
  };
}

/** The parts of a workflow a parallel part calls: its one step's parts, or that step itself (takt.ts checked). */
function calledParts(part: Prepared): Prepared[] {
  const [only] = (part.call as Scope).steps as [Prepared];
  return only.parts ? [...only.parts.fixed, ...only.parts.pool] : [only];
}

/**
 * A parallel part that calls a workflow (TAKT: the called workflow runs as that part, its result the part's verdict):
 * that workflow's parts under the part's heading, and the part's verdict spelled from the called step's rules — the
 * result each rule returns (COMPLETE, ABORT or a `return`), when its condition holds.
 */
function calledPartText(part: Prepared, leaf: (p: Prepared, level: string) => string): string {
  const callee = part.call as Scope;
  const [only] = callee.steps as [Prepared];
  const inner = calledParts(part);
  const verdicts = (only.step.rules ?? []).flatMap((rule, i) => {
    const result = rule.return ?? (rule.next === 'COMPLETE' || rule.next === 'ABORT' ? rule.next : null);
    if (!result) return [];
    const when = condition(rule, only.parts ? inner : null, { ...only.at, path: [...only.at.path, 'rules', i] });
    return [`- "${result}" when ${when}`];
  });
  const about = part.step.description ? ` — ${part.step.description}` : '';
  const fixed = only.parts ? only.parts.fixed : [only];
  const pool = only.parts ? only.parts.pool : [];
  const names = (list: Prepared[]) => list.map((p) => p.name).join(', ');
  const intro = [
    `This part runs the workflow ${callee.workflow.name}.`,
    fixed.length > 0 ? `Do its part${fixed.length > 1 ? 's' : ''} ${names(fixed)} one after another.` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const choose =
    pool.length > 0
      ? `Of its parts ${names(pool)}, do only those that this change needs (judge by their description), and say which you chose and why.`
      : '';
  const end = verdicts.length > 0 ? `End this part with its verdict:\n${verdicts.join('\n')}` : '';
  return [
    `## Part ${part.name}${about}`,
    intro,
    ...fixed.map((p) => leaf(p, '###')),
    choose,
    ...pool.map((p) => leaf(p, '###')),
    end,
  ]
    .filter(Boolean)
    .join('\n\n');
}

function stepText(files: TaktFiles, scope: Scope, prepared: Prepared, part: string | null): StepText {
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

/**
 * The route of a step whose rules are `when()` conditions (and of every system step): the engine evaluates them in
 * order on the structured results, not the model; null for a step the model routes. Mixing when() with conditions
 * the model judges is refused (which would decide first is TAKT's evaluation order, not something to guess here).
 */
function routeOf(files: TaktFiles, scope: Scope, prepared: Prepared, rules: TaktRule[], targets: (Target | null)[]) {
  const { step, at } = prepared;
  const inner = rules.map((r) => (r.condition ? whenInner(r.condition) : null));
  const system = step.kind === 'system' || step.mode === 'system';
  if (!system && inner.every((w) => w === null)) {
    if (step.structured_output)
      throw new TaktError('a structured_output step routes by when() rules here: its rules must be when() conditions', {
        ...at,
        path: [...at.path, 'structured_output'],
      });
    return null;
  }
  const results: Record<string, string> = {};
  const routeRules = rules.flatMap((_rule, i) => {
    const ruleAt = { ...at, path: [...at.path, 'rules', i, 'condition'] };
    const text = inner[i];
    if (text === null || text === undefined)
      throw new TaktError("a step's rules are all when() conditions or none of them", ruleAt);
    let expr: ReturnType<typeof parseWhen>;
    try {
      expr = parseWhen(text);
    } catch (error) {
      throw new TaktError(`when(): ${(error as Error).message}`, ruleAt);
    }
    for (const ref of expr.steps) {
      const source = scope.steps.find((s) => s.name === ref);
      if (!source?.step.structured_output)
        throw new TaktError(`when(): structured.${ref} names no step of this workflow with structured_output`, ruleAt);
      results[ref] = `${scope.prefix}${ref}`;
    }
    const t = targets[i];
    if (!t) return [];
    if (t.kind === 'ask') throw new TaktError('requires_user_input cannot be combined with a when() condition', ruleAt);
    const end = t.kind === 'movement' ? { to: t.name } : { end: t.kind === 'complete' ? 'complete' : 'abort' };
    return [{ when: text, ...end }];
  });
  if (routeRules.length === 0)
    throw new TaktError('a when() step needs a rule that leads somewhere', { ...at, path: [...at.path, 'rules'] });
  const schema = step.structured_output ? resultSchema(files, scope, step.structured_output.schema_ref, at) : undefined;
  return { system, ...(schema ? { schema } : {}), results, rules: routeRules };
}

/** `schemas/<name>.json` beside the workflow folder (`schemas:` maps a schema_ref to a name first). */
function resultSchema(files: TaktFiles, scope: Scope, ref: string, at: At): Record<string, unknown> {
  const name = scope.workflow.schemas?.[ref] ?? ref;
  const where = { ...at, path: [...at.path, 'structured_output', 'schema_ref'] };
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new TaktError(`schema ${name}: named by a bare name`, where);
  const rel = `${scope.rel.split('/').slice(0, -2).concat('schemas', `${name}.json`).join('/')}`;
  const text = files.read(rel);
  if (text === null) throw new TaktError(`no schema named ${name} (looked for ${files.show(rel)})`, where);
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new TaktError(`schema ${name} (${files.show(rel)}): ${(error as Error).message}`, where);
  }
}

/** What a routed step's model is told about how it ends. */
function resultText(schema: Record<string, unknown> | undefined): string {
  const how = schema
    ? `End the step by calling \`complete\` with status "success" and, as \`message\`, only a JSON object that matches this schema:\n\`\`\`json\n${JSON.stringify(schema, null, 2)}\n\`\`\``
    : 'End the step by calling `complete` with status "success" and your result as `message`.';
  return `## When you are done with this step\nThe workflow goes on by itself from this step's result: you do not choose the next step. ${how}`;
}

/** `read()`'s facet texts; a facet that resolves to nothing is an error at the step's `field`. */
function facetTexts<T = string[]>(files: TaktFiles, prepared: Prepared, field: string[], read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof TaktError) || error.at) throw error;
    const from = fromFragments(files, prepared.fragments);
    throw new TaktError(`${error.message}${from}`, { ...prepared.at, path: [...prepared.at.path, ...field] });
  }
}

function reportsOf(scope: Scope, prepared: Prepared): { name: string; format: string }[] {
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

function permissionsOf(files: TaktFiles, scope: Scope, prepared: Prepared) {
  try {
    return stepPermissions(prepared.step, files, scope.rel, scope.workflow.capabilities);
  } catch (error) {
    if (error instanceof TaktError && !error.at) throw new TaktError(error.message, prepared.at);
    throw error;
  }
}

function rulesText(rules: TaktRule[], targets: (Target | null)[], parts: Prepared[] | null, at: At): string {
  const lines = rules.flatMap((rule, i) => {
    const t = targets[i];
    if (!t) return [];
    const appendix = rule.appendix?.trim()
      ? `\n  In your message, include:\n  ${rule.appendix.trim().replace(/\n/g, '\n  ')}`
      : '';
    return [`- ${condition(rule, parts, { ...at, path: [...at.path, 'rules', i] })}: ${action(t)}${appendix}`];
  });
  return lines.length > 0 ? `## When you are done with this step\n${lines.join('\n')}` : '';
}

/** `{var:name}` of the calling workflows (`unspecified` when none sets it). */
function vars(scope: Scope, text: string): string {
  return text.replace(/\{var:([A-Za-z0-9_.-]+)\}/g, (_m, name: string) => String(scope.vars[name] ?? 'unspecified'));
}

function checkPlaceholders(text: string, at: At): void {
  const engine = /\{(context|structured|effect):[^}]*\}/.exec(text);
  if (engine)
    throw new TaktError(`the placeholder ${engine[0]} needs TAKT's system steps, which are not supported`, at);
}

interface StepText {
  persona: string;
  body: string;
  pools: PoolFile[];
}

function reportsText(reports: { name: string; format: string }[]): string {
  if (reports.length === 0) return '';
  const each = reports.map((r) => `### ${r.name}\n${r.format}`.trim()).join('\n\n');
  return `## Reports\nEnd this step with ${reports.length > 1 ? 'these reports, one after another,' : 'this report'} in the \`reason\` of your \`transition\` call (or in the \`message\` of \`complete\`):\n\n${each}`;
}

function action(t: Target): string {
  switch (t.kind) {
    case 'movement':
      return `call \`transition\` with next "${t.name}"`;
    case 'complete':
      return 'call `complete` with status "success"';
    case 'abort':
      return `call \`complete\` with status "failure"${t.why ? ` (${t.why})` : ''}`;
    case 'ask':
      return `call \`complete\` with status "needs_user_input" and your question${t.then ? `; once answered, ${action(t.then)}` : ''}`;
  }
}

/** A rule's condition as the model reads it: all()/any() over the parallel parts' verdicts spelled out. */
function condition(rule: TaktRule, parts: Prepared[] | null, at: At): string {
  const text = (rule.condition ?? 'otherwise').trim();
  if (/\bwhen\(/.test(text))
    throw new TaktError('state predicates (when) are not supported', { ...at, path: [...at.path, 'condition'] });
  const ai = /^ai\((.*)\)$/s.exec(text);
  if (ai) return parseArgs(ai[1] as string, at).join(' ');
  const aggregate = /^(all|any)\((.*)\)$/s.exec(text);
  if (!aggregate) return text;
  const [, op, args] = aggregate;
  const labels = parseArgs(args as string, at);
  const quoted = labels.map((l) => `"${l}"`);
  if (labels.length === 1) return `${op === 'all' ? 'every' : 'any'} part's verdict is ${quoted[0]}`;
  if (op === 'any') return `any part's verdict is one of ${quoted.join(', ')}`;
  if (!parts) return `every verdict is one of ${quoted.join(', ')}`;
  return `the verdicts are ${labels.map((l, i) => `${parts[i]?.name ?? `part ${i + 1}`}: "${l}"`).join(', ')}`;
}

function parseArgs(args: string, at: At): string[] {
  try {
    const list = JSON.parse(`[${args}]`) as unknown[];
    if (list.every((l) => typeof l === 'string')) return list as string[];
  } catch {}
  // TAKT reads every "…" in the arguments; a plain YAML scalar can carry escaped quotes (`all(\"approved\")`).
  const quoted = [...args.matchAll(/\\?"([^"\\]+)\\?"/g)].map((m) => m[1] as string);
  if (quoted.length > 0) return quoted;
  throw new TaktError(`cannot read the condition's arguments (${args})`, { ...at, path: [...at.path, 'condition'] });
}
