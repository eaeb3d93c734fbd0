// Imports TAKT workflow files — the current layout (`steps`, builtins/<lang>/workflows + facets + steps), April 2026's
// `pieces` layout and February 2026's (`movements`) — into MAESTRO's Piece shape, so people can bring the workflows
// they already have. Called workflows (`kind: workflow_call`) are inlined as movements named `<step>.<their step>`;
// parallel parts become one movement that does them in turn; a loop monitor's judge becomes a movement the loop check
// enters. What cannot be mapped is refused with its file, line and field. pieces/README.md has the mapping.
import path from 'node:path';
import { bindParams, expandUses } from './takt-expand';
import { type FacetKind, Facets } from './takt-facets';
import { TaktError, type TaktFiles, YamlFile } from './takt-files';
import { stepProblems, type TaktRule, TaktStep, TaktWorkflow, workflowProblems } from './takt-schema';
import { stepPermissions } from './takt-tools';

/** A TAKT file is recognised by its own words: steps, rules, initial_movement/initial_step, or no `id`. */
export function looksLikeTakt(raw: unknown): boolean {
  if (!raw || typeof raw !== 'object') return false;
  const r = raw as Record<string, unknown>;
  const own = ['steps', 'initial_step', 'initial_movement', 'max_iterations', 'max_steps', 'subworkflow'];
  if (own.some((k) => k in r)) return true;
  const movements = Array.isArray(r.movements) ? (r.movements as Record<string, unknown>[]) : [];
  const stepWords = ['rules', 'allowed_tools', 'persona', 'instruction', 'parallel'];
  return !('id' in r) && movements.some((m) => m && typeof m === 'object' && stepWords.some((k) => k in m));
}

type Target =
  | { kind: 'movement'; name: string }
  | { kind: 'complete' }
  | { kind: 'abort'; why?: string }
  | { kind: 'ask'; then?: Target };
type Exits = Record<string, Target>;
type At = { rel: string; path: (string | number)[] };

interface Prepared {
  name: string;
  step: TaktStep;
  at: At;
  /** The fragment files the step came from (`uses`). */
  fragments: string[];
  call?: Scope;
  parts?: { fixed: Prepared[]; pool: Prepared[] };
}

interface Scope {
  rel: string;
  workflow: TaktWorkflow;
  facets: Facets;
  prefix: string;
  steps: Prepared[];
  initial: string;
  vars: Readonly<Record<string, string | number | boolean>>;
}

export type TaktConversion = { kind: 'piece'; piece: Record<string, unknown> } | { kind: 'callable' };

const END_WORDS = new Set(['COMPLETE', 'ABORT']);

/** The MAESTRO piece object (checked afterwards like any piece file) for the TAKT file at `rel` under `files`. */
export function convertTakt(rel: string, files: TaktFiles): TaktConversion {
  const converter = new Converter(files);
  const file = converter.parse(rel);
  const top = TaktWorkflow.safeParse(file.value);
  if (top.success && top.data.subworkflow?.callable === true) return { kind: 'callable' };
  const root = converter.prepare(rel, '', {}, {}, []);
  const movements: Record<string, unknown>[] = [];
  const monitors: Record<string, unknown>[] = [];
  converter.emit(root, { COMPLETE: { kind: 'complete' }, ABORT: { kind: 'abort' } }, movements, monitors);
  const w = root.workflow;
  const budget = w.max_steps ?? w.max_movements ?? w.max_iterations;
  return {
    kind: 'piece',
    piece: {
      id: path.posix
        .basename(rel)
        .replace(/\.ya?ml$/, '')
        .toLowerCase()
        .replace(/[^a-z0-9_-]/g, '-'),
      name: w.name,
      description: w.description,
      start_movement: converter.entry(root),
      ...(budget !== undefined ? { max_movements: budget, revisit_limit: budget } : { revisit_limit: 20 }),
      movements,
      loop_monitors: monitors,
    },
  };
}

class Converter {
  private readonly parsed = new Map<string, YamlFile>();
  constructor(private readonly files: TaktFiles) {}

  parse(rel: string): YamlFile {
    const hit = this.parsed.get(rel);
    if (hit) return hit;
    const text = this.files.read(rel);
    if (text === null) throw new TaktError(`${this.files.show(rel)} cannot be read`, { rel, path: [] });
    const file = YamlFile.parse(rel, text);
    this.parsed.set(rel, file);
    return file;
  }

  /** Reads a workflow and what it uses: parameters bound, fragments expanded, called workflows read. */
  prepare(
    rel: string,
    prefix: string,
    args: Readonly<Record<string, unknown>>,
    vars: Readonly<Record<string, string | number | boolean>>,
    stack: string[],
  ): Scope {
    const file = this.parse(rel);
    const raw = file.value;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw new TaktError('not a TAKT workflow (a mapping)', { rel, path: [] });
    const [problem] = workflowProblems(raw as Record<string, unknown>);
    if (problem) throw new TaktError(problem[1], { rel, path: [problem[0]] });
    const parsed = TaktWorkflow.safeParse(raw);
    if (!parsed.success) throw zodError(parsed.error, rel, []);
    const workflow = parsed.data;
    const list = workflow.steps ? 'steps' : 'movements';
    const rawSteps = workflow.steps ?? workflow.movements ?? [];
    if (rawSteps.length === 0) throw new TaktError('must list steps (or movements)', { rel, path: ['steps'] });

    const params = workflow.subworkflow?.params ?? {};
    for (const name of Object.keys(args)) {
      if (!(name in params))
        throw new TaktError(`args.${name}: ${workflow.name} has no parameter ${name}`, { rel, path: [] });
    }
    const bindings: Record<string, unknown> = {};
    for (const [name, decl] of Object.entries(params)) {
      if (name in args) bindings[name] = args[name];
      else if (decl.default !== undefined) bindings[name] = decl.default;
    }
    const facets = new Facets(this.files, rel, {
      personas: workflow.personas,
      policies: workflow.policies,
      knowledge: workflow.knowledge,
      instructions: workflow.instructions,
      'output-contracts': workflow.report_formats,
    });
    const scope: Scope = { rel, workflow, facets, prefix, steps: [], initial: '', vars };
    rawSteps.forEach((rawStep, i) => {
      const at = { rel, path: [list, i] };
      const prepared = this.prepareStep(rawStep, bindings, rel, at);
      if (scope.steps.some((s) => s.name === prepared.name)) {
        throw new TaktError(`${prepared.name} appears twice`, { rel, path: [...at.path, 'name'] });
      }
      const call = prepared.step.kind === 'workflow_call' || prepared.step.call !== undefined;
      if (call) prepared.call = this.prepareCall(prepared, scope, stack);
      scope.steps.push(prepared);
    });
    const initial = workflow.initial_step ?? workflow.initial_movement ?? (scope.steps[0] as Prepared).name;
    if (!scope.steps.some((s) => s.name === initial)) {
      const field = workflow.initial_step ? 'initial_step' : 'initial_movement';
      throw new TaktError(`names no step of this workflow (steps: ${scope.steps.map((s) => s.name).join(', ')})`, {
        rel,
        path: [field],
      });
    }
    scope.initial = initial;
    return scope;
  }

  private prepareStep(rawStep: unknown, bindings: Record<string, unknown>, rel: string, at: At): Prepared {
    if (!rawStep || typeof rawStep !== 'object' || Array.isArray(rawStep))
      throw new TaktError('a step must be a mapping', at);
    const bound = bindParams(rawStep, bindings, at) as Record<string, unknown>;
    const { step: expanded, fragments } = expandUses(bound, this.files, rel, at);
    const from = fragments.length > 0 ? ` (from ${fragments.map((f) => this.files.show(f)).join(' → ')})` : '';
    const [problem] = stepProblems(expanded);
    if (problem) throw new TaktError(`${problem[1]}${from}`, { ...at, path: [...at.path, ...problem[0].split('.')] });
    const parsed = TaktStep.safeParse(expanded);
    if (!parsed.success) throw zodError(parsed.error, at.rel, at.path, from);
    const step = parsed.data;
    const prepared: Prepared = { name: step.name, step, at, fragments };
    if (step.parallel !== undefined) prepared.parts = this.prepareParts(step.parallel, bindings, rel, at);
    return prepared;
  }

  private prepareParts(parallel: unknown, bindings: Record<string, unknown>, rel: string, at: At) {
    const pAt = { ...at, path: [...at.path, 'parallel'] };
    const group = (list: unknown, field: (string | number)[]): Prepared[] => {
      if (!Array.isArray(list) || list.length === 0)
        throw new TaktError('must list its parts', { ...at, path: [...pAt.path, ...field] });
      return list.map((part, i) => {
        const prepared = this.prepareStep(part, bindings, rel, { ...at, path: [...pAt.path, ...field, i] });
        if (prepared.parts) throw new TaktError('parallel parts cannot be parallel themselves', prepared.at);
        if (prepared.step.kind === 'workflow_call')
          throw new TaktError('a parallel part cannot call a workflow', prepared.at);
        return prepared;
      });
    };
    if (Array.isArray(parallel)) return { fixed: group(parallel, []), pool: [] };
    if (parallel && typeof parallel === 'object') {
      const p = parallel as Record<string, unknown>;
      const extra = Object.keys(p).find((k) => !['fixed', 'pool', 'selection'].includes(k));
      if (extra) throw new TaktError(`${extra} is not a field of a parallel mapping (fixed, pool, selection)`, pAt);
      const pool = group(p.pool, ['pool']);
      pool.forEach((part) => {
        if (!part.step.description) throw new TaktError('a pool part needs a description', part.at);
      });
      return { fixed: p.fixed === undefined ? [] : group(p.fixed, ['fixed']), pool };
    }
    throw new TaktError('parallel must be a list of parts or a mapping of fixed and pool parts', pAt);
  }

  private prepareCall(prepared: Prepared, scope: Scope, stack: string[]): Scope {
    const { step, at } = prepared;
    const callAt = { ...at, path: [...at.path, 'call'] };
    if (typeof step.call !== 'string')
      throw new TaktError('a workflow_call step must name the workflow it calls (call)', callAt);
    if (!/^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(step.call) || step.call.split('/').includes('..')) {
      throw new TaktError(`call ${step.call}: not a workflow name`, callAt);
    }
    const dir = path.posix.dirname(scope.rel);
    const candidates = ['yaml', 'yml'].map((ext) => path.posix.join(dir, `${step.call}.${ext}`));
    const rel = candidates.find((c) => this.files.read(c) !== null);
    if (!rel) {
      const looked = candidates.map((c) => this.files.show(c)).join(', ');
      throw new TaktError(
        `call ${step.call}: no workflow named ${step.call} in this catalog (looked for ${looked})`,
        callAt,
      );
    }
    if (rel === scope.rel || stack.includes(rel)) {
      throw new TaktError(
        `call ${step.call}: workflows call each other in a circle (${[...stack, scope.rel, rel].join(' → ')})`,
        callAt,
      );
    }
    const child = this.parse(rel).value as Record<string, unknown> | null;
    const sub = child?.subworkflow as { callable?: unknown } | undefined;
    if (sub?.callable !== true)
      throw new TaktError(
        `call ${step.call}: ${this.files.show(rel)} is not callable (subworkflow.callable: true)`,
        callAt,
      );
    return this.prepare(rel, `${scope.prefix}${prepared.name}.`, step.args ?? {}, { ...scope.vars, ...step.vars }, [
      ...stack,
      scope.rel,
    ]);
  }

  /** The movement a scope starts in: its initial step's, or the start of the workflow that step calls. */
  entry(scope: Scope): string {
    const step = scope.steps.find((s) => s.name === scope.initial) as Prepared;
    return step.call ? this.entry(step.call) : `${scope.prefix}${step.name}`;
  }

  /** Where a rule leads, seen from `scope` whose results map to `exits`; null for a rule without next or return. */
  private target(scope: Scope, exits: Exits, rule: TaktRule, self: string, at: At): Target | null {
    if (rule.requires_user_input) {
      const then =
        rule.next && rule.next !== self
          ? this.target(scope, exits, { ...rule, requires_user_input: false }, self, at)
          : null;
      return then ? { kind: 'ask', then } : { kind: 'ask' };
    }
    if (rule.return !== undefined) {
      if (scope.prefix === '')
        throw new TaktError('return: only a called workflow can return a result', {
          ...at,
          path: [...at.path, 'return'],
        });
      return exits[rule.return] ?? { kind: 'abort', why: `the calling step has no rule for ${rule.return}` };
    }
    if (rule.next === undefined) return null;
    if (END_WORDS.has(rule.next))
      return exits[rule.next] ?? { kind: 'abort', why: `the calling step has no rule for ${rule.next}` };
    const step = scope.steps.find((s) => s.name === rule.next);
    if (!step) {
      throw new TaktError(`names no step of this workflow (steps: ${scope.steps.map((s) => s.name).join(', ')})`, {
        ...at,
        path: [...at.path, 'next'],
      });
    }
    return { kind: 'movement', name: step.call ? this.entry(step.call) : `${scope.prefix}${step.name}` };
  }

  /** Appends the scope's movements (and its called workflows', inlined) and loop monitors. */
  emit(scope: Scope, exits: Exits, out: Record<string, unknown>[], monitors: Record<string, unknown>[]): void {
    for (const prepared of scope.steps) {
      const rules = prepared.step.rules ?? [];
      const ruleAt = (i: number) => ({ ...prepared.at, path: [...prepared.at.path, 'rules', i] });
      if (prepared.call) {
        const childExits: Exits = {};
        rules.forEach((rule, i) => {
          if (!rule.condition)
            throw new TaktError('a workflow_call rule names the result it handles (condition)', ruleAt(i));
          const t = this.target(scope, exits, rule, prepared.name, ruleAt(i));
          if (t) childExits[rule.condition] = t;
        });
        this.emit(prepared.call, childExits, out, monitors);
        continue;
      }
      const targets = rules.map((rule, i) => this.target(scope, exits, rule, prepared.name, ruleAt(i)));
      out.push(this.movement(scope, prepared, rules, targets));
    }
    (scope.workflow.loop_monitors ?? []).forEach((monitor, i) => {
      const at = { rel: scope.rel, path: ['loop_monitors', i] };
      const global = (name: string, field: string, j: number) => {
        const step = scope.steps.find((s) => s.name === name);
        if (!step) throw new TaktError(`names no step of this workflow`, { ...at, path: [...at.path, field, j] });
        if (step.call)
          throw new TaktError(`a loop check cannot watch a workflow_call step`, {
            ...at,
            path: [...at.path, field, j],
          });
        return `${scope.prefix}${name}`;
      };
      const judge = `${scope.prefix}loop-check-${i + 1}`;
      const jAt = { ...at, path: [...at.path, 'judge'] };
      const jRules = monitor.judge.rules;
      const targets = jRules.map((rule, j) =>
        this.target(scope, exits, rule, judge, { ...jAt, path: [...jAt.path, 'rules', j] }),
      );
      const step = TaktStep.parse({ ...monitor.judge, name: judge, edit: false });
      const cycle = monitor.cycle.map((n, j) => global(n, 'cycle', j));
      const lead = `The steps ${cycle.join(' → ')} have now run {cycle_count} times in a row. Judge whether this loop is making progress.`;
      const movement = this.movement(scope, { name: judge, step, at: jAt, fragments: [] }, jRules, targets, lead);
      out.push({ ...movement, name: judge, description: `Loop check of ${cycle.join(' → ')}` });
      monitors.push({
        cycle,
        ignore: (monitor.ignore_steps ?? []).map((n, j) => global(n, 'ignore_steps', j)),
        threshold: monitor.threshold,
        judge,
      });
    });
  }

  private movement(scope: Scope, prepared: Prepared, rules: TaktRule[], targets: (Target | null)[], lead?: string) {
    const { step, at } = prepared;
    const name = `${scope.prefix}${prepared.name}`;
    const parts = prepared.parts ? [...prepared.parts.fixed, ...prepared.parts.pool] : [prepared];
    const texts = parts.map((p) => this.stepText(scope, p));
    const permissions = parts.map((p) => this.permissions(scope, p));
    let guidance: string;
    let body: string;
    if (prepared.parts) {
      const { fixed, pool } = prepared.parts;
      guidance = parts
        .map((p, i) => (texts[i]?.persona ? `## Part ${p.name}\n${texts[i]?.persona}` : ''))
        .filter(Boolean)
        .join('\n\n');
      const part = (p: Prepared) => {
        const t = texts[parts.indexOf(p)] as StepText;
        const verdicts = (p.step.rules ?? []).flatMap((r) => (r.condition ? [`"${r.condition}"`] : []));
        const end = verdicts.length > 0 ? `\n\nEnd this part with its verdict, one of: ${verdicts.join(', ')}.` : '';
        const about = p.step.description ? ` — ${p.step.description}` : '';
        return `## Part ${p.name}${about}\n${t.body}${end}`.trim();
      };
      const intro =
        fixed.length > 0
          ? `This step has ${fixed.length} part${fixed.length > 1 ? 's' : ''} (${fixed.map((p) => p.name).join(', ')}). Do them one after another, in this order, each as its own part.`
          : '';
      const choose =
        pool.length > 0
          ? `Of the following parts, do only those that this change needs (judge by their description), and say which you chose and why.`
          : '';
      body = [intro, ...fixed.map(part), choose, ...pool.map(part)].filter(Boolean).join('\n\n');
    } else {
      guidance = texts[0]?.persona ?? '';
      body = texts[0]?.body ?? '';
    }
    const reports = parts.flatMap((p) => this.reports(scope, p));
    const ruleText = this.rulesText(
      rules,
      targets,
      prepared.parts ? [...prepared.parts.fixed, ...prepared.parts.pool] : null,
      at,
    );
    const gitRule = step.allow_git_commit ? '' : 'Do not run git add, git commit or git push in this step.';
    const instruction = [lead ?? '', body, reportsText(reports), gitRule, ruleText].filter(Boolean).join('\n\n');
    this.checkPlaceholders(instruction, at);
    const transitions: { to: string; when: string }[] = [];
    targets.forEach((t, i) => {
      const to =
        t?.kind === 'movement' ? t.name : t?.kind === 'ask' && t.then?.kind === 'movement' ? t.then.name : null;
      if (!to) return;
      const when = condition(rules[i] as TaktRule, null, at);
      const same = transitions.find((x) => x.to === to);
      if (same) same.when = `${same.when}; or ${when}`;
      else transitions.push({ to, when });
    });
    const tools = permissions.some((p) => p.tools === null)
      ? null
      : [...new Set(permissions.flatMap((p) => p.tools ?? []))];
    return {
      name,
      description: step.description ?? '',
      guidance: this.vars(scope, guidance),
      instruction: this.vars(scope, instruction),
      reports: reports.map((r) => r.name),
      ...(tools ? { tools } : {}),
      edit: permissions.some((p) => p.edit),
      transitions,
    };
  }

  private stepText(scope: Scope, prepared: Prepared): StepText {
    const { step, at } = prepared;
    const facet = (kind: FacetKind, field: string, refs: string | string[] | undefined) => {
      try {
        return scope.facets.texts(kind, refs);
      } catch (error) {
        if (!(error instanceof TaktError) || error.at) throw error;
        const from =
          prepared.fragments.length > 0
            ? ` (from ${prepared.fragments.map((f) => this.files.show(f)).join(' → ')})`
            : '';
        throw new TaktError(`${error.message}${from}`, { ...at, path: [...at.path, field] });
      }
    };
    const persona = facet('personas', 'persona', step.persona).join('\n\n');
    const instruction = facet('instructions', 'instruction', step.instruction ?? step.instruction_template).join(
      '\n\n',
    );
    const knowledge = facet('knowledge', 'knowledge', step.knowledge);
    const policies = facet('policies', 'policy', step.policy);
    const gates = step.quality_gates ?? [];
    const body = [
      knowledge.length > 0 ? `## Knowledge\n${knowledge.join('\n\n---\n\n')}` : '',
      instruction,
      policies.length > 0 ? `## Policy\n${policies.join('\n\n---\n\n')}` : '',
      gates.length > 0 ? `## Before you finish\n${gates.map((g) => `- ${g}`).join('\n')}` : '',
    ]
      .filter(Boolean)
      .join('\n\n');
    return { persona, body };
  }

  private reports(scope: Scope, prepared: Prepared): { name: string; format: string }[] {
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

  private permissions(scope: Scope, prepared: Prepared) {
    try {
      return stepPermissions(prepared.step, this.files, scope.rel, scope.workflow.capabilities);
    } catch (error) {
      if (error instanceof TaktError && !error.at) throw new TaktError(error.message, prepared.at);
      throw error;
    }
  }

  private rulesText(rules: TaktRule[], targets: (Target | null)[], parts: Prepared[] | null, at: At): string {
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
  private vars(scope: Scope, text: string): string {
    return text.replace(/\{var:([A-Za-z0-9_.-]+)\}/g, (_m, name: string) => String(scope.vars[name] ?? 'unspecified'));
  }

  private checkPlaceholders(text: string, at: At): void {
    const engine = /\{(context|structured|effect):[^}]*\}/.exec(text);
    if (engine)
      throw new TaktError(`the placeholder ${engine[0]} needs TAKT's system steps, which are not supported`, at);
  }
}

interface StepText {
  persona: string;
  body: string;
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
  throw new TaktError(`cannot read the condition's arguments (${args})`, { ...at, path: [...at.path, 'condition'] });
}

function zodError(
  error: { issues: readonly { path: PropertyKey[]; message: string }[] },
  rel: string,
  base: (string | number)[],
  suffix = '',
): TaktError {
  const issue = error.issues[0] as { path: PropertyKey[]; message: string };
  const field = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  return new TaktError(`${issue.message}${suffix}`, { rel, path: [...base, ...field] });
}
