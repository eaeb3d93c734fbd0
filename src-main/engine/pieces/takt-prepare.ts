// Reads a TAKT workflow and what it uses into a Scope of prepared steps: the file parsed and checked against TAKT's
// fields, parameters bound, fragments (`uses`) expanded, parallel parts and called workflows (`workflow_call`) read
// in turn, `all_steps.rules` resolved. What cannot be read is refused with its file and field.
import path from 'node:path';
import { bindParams, expandUses } from './takt-expand';
import { Facets } from './takt-facets';
import { TaktError, type TaktFiles, YamlFile } from './takt-files';
import { stepProblems, TaktStep, TaktWorkflow, workflowProblems } from './takt-schema';
import { type At, fromFragments, type Prepared, type Scope, type WorkflowRule } from './takt-scope';

export class WorkflowReader {
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
    inherited: readonly WorkflowRule[],
    stack: string[],
  ): Scope {
    const file = this.parse(rel);
    const raw = file.value;
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw new TaktError('not a TAKT workflow (a mapping)', { rel, path: [] });
    const [problem] = workflowProblems(raw as Record<string, unknown>);
    if (problem) throw new TaktError(problem[1], { rel, path: problem[0].split('.') });
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
    const rules = (workflow.all_steps?.rules ?? []).map((entry, i): WorkflowRule => {
      const { ref, position } =
        typeof entry === 'string' ? { ref: entry, position: 'after_execution_rules' as const } : entry;
      try {
        return { position, text: facets.rule(ref) };
      } catch (error) {
        if (error instanceof TaktError && !error.at)
          throw new TaktError(error.message, { rel, path: ['all_steps', 'rules', i] });
        throw error;
      }
    });
    const scope: Scope = {
      rel,
      workflow,
      facets,
      prefix,
      steps: [],
      initial: '',
      vars,
      rules: [...inherited, ...rules],
    };
    rawSteps.forEach((rawStep, i) => {
      const at = { rel, path: [list, i] };
      const prepared = this.prepareStep(rawStep, bindings, rel, at, scope, stack);
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

  private prepareStep(
    rawStep: unknown,
    bindings: Record<string, unknown>,
    rel: string,
    at: At,
    scope: Scope,
    stack: string[],
  ): Prepared {
    if (!rawStep || typeof rawStep !== 'object' || Array.isArray(rawStep))
      throw new TaktError('a step must be a mapping', at);
    const bound = bindParams(rawStep, bindings, at) as Record<string, unknown>;
    const { step: expanded, fragments } = expandUses(bound, this.files, rel, at);
    const from = fromFragments(this.files, fragments);
    const [problem] = stepProblems(expanded);
    if (problem) throw new TaktError(`${problem[1]}${from}`, { ...at, path: [...at.path, ...problem[0].split('.')] });
    const parsed = TaktStep.safeParse(expanded);
    if (!parsed.success) throw zodError(parsed.error, at.rel, at.path, from);
    const step = parsed.data;
    const prepared: Prepared = { name: step.name, step, at, fragments };
    if (step.parallel !== undefined) prepared.parts = this.prepareParts(step.parallel, bindings, rel, at, scope, stack);
    return prepared;
  }

  private prepareParts(
    parallel: unknown,
    bindings: Record<string, unknown>,
    rel: string,
    at: At,
    scope: Scope,
    stack: string[],
  ) {
    const pAt = { ...at, path: [...at.path, 'parallel'] };
    const group = (list: unknown, field: (string | number)[]): Prepared[] => {
      if (!Array.isArray(list) || list.length === 0)
        throw new TaktError('must list its parts', { ...at, path: [...pAt.path, ...field] });
      return list.map((part, i) => {
        const prepared = this.prepareStep(
          part,
          bindings,
          rel,
          { ...at, path: [...pAt.path, ...field, i] },
          scope,
          stack,
        );
        if (prepared.parts) throw new TaktError('parallel parts cannot be parallel themselves', prepared.at);
        if (prepared.step.kind === 'workflow_call') this.preparePartCall(prepared, scope, stack);
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

  /**
   * A parallel part that calls a workflow is done inside the parallel step's one movement, so the called workflow
   * must be one step — a parallel step of agent parts, or one agent step — without loop checks of its own.
   */
  private preparePartCall(prepared: Prepared, scope: Scope, stack: string[]): void {
    const callee = this.prepareCall(prepared, scope, stack);
    const [only, ...more] = callee.steps as [Prepared, ...Prepared[]];
    const why = (what: string) =>
      new TaktError(`call ${prepared.step.call}: a parallel part can call only a workflow of one step (${what})`, {
        ...prepared.at,
        path: [...prepared.at.path, 'call'],
      });
    if (more.length > 0) throw why(`${callee.workflow.name} has ${callee.steps.length}`);
    if ((callee.workflow.loop_monitors ?? []).length > 0) throw why(`${callee.workflow.name} has loop checks`);
    const inner = only.parts ? [...only.parts.fixed, ...only.parts.pool] : [only];
    if (
      only.call ||
      inner.some((p) => p.call || p.step.team_leader || p.step.kind === 'system' || p.step.mode === 'system')
    )
      throw why(`its step ${only.name} is not agent work`);
    prepared.call = callee;
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
    const vars = { ...scope.vars, ...step.vars };
    return this.prepare(rel, `${scope.prefix}${prepared.name}.`, step.args ?? {}, vars, scope.rules, [
      ...stack,
      scope.rel,
    ]);
  }
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
