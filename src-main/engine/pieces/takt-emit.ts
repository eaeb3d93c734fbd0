// Turns prepared TAKT scopes into MAESTRO movements and loop monitors: where each rule leads (a movement, the end, or
// the calling step's result), called workflows inlined as movements named `<step>.<their step>`, and a loop monitor's
// judge as a movement the loop check enters.
import { TaktError, type TaktFiles } from './takt-files';
import { composeMovement } from './takt-movement';
import { type TaktRule, TaktStep } from './takt-schema';
import type { At, Exits, Prepared, Scope, Target } from './takt-scope';

const END_WORDS = new Set(['COMPLETE', 'ABORT']);

/** The movement a scope starts in: its initial step's, or the start of the workflow that step calls. */
export function entry(scope: Scope): string {
  const step = scope.steps.find((s) => s.name === scope.initial) as Prepared;
  return step.call ? entry(step.call) : `${scope.prefix}${step.name}`;
}

/** Where a rule leads, seen from `scope` whose results map to `exits`; null for a rule without next or return. */
function target(scope: Scope, exits: Exits, rule: TaktRule, self: string, at: At): Target | null {
  if (rule.requires_user_input) {
    const then =
      rule.next && rule.next !== self ? target(scope, exits, { ...rule, requires_user_input: false }, self, at) : null;
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
  return { kind: 'movement', name: step.call ? entry(step.call) : `${scope.prefix}${step.name}` };
}

/** Appends the scope's movements (and its called workflows', inlined) and loop monitors. */
export function emit(
  files: TaktFiles,
  scope: Scope,
  exits: Exits,
  out: Record<string, unknown>[],
  monitors: Record<string, unknown>[],
): void {
  for (const prepared of scope.steps) {
    const rules = prepared.step.rules ?? [];
    const ruleAt = (i: number) => ({ ...prepared.at, path: [...prepared.at.path, 'rules', i] });
    if (prepared.call) {
      const childExits: Exits = {};
      rules.forEach((rule, i) => {
        if (!rule.condition)
          throw new TaktError('a workflow_call rule names the result it handles (condition)', ruleAt(i));
        const t = target(scope, exits, rule, prepared.name, ruleAt(i));
        if (t) childExits[rule.condition] = t;
      });
      emit(files, prepared.call, childExits, out, monitors);
      continue;
    }
    const targets = rules.map((rule, i) => target(scope, exits, rule, prepared.name, ruleAt(i)));
    out.push(composeMovement(files, scope, prepared, rules, targets));
  }
  (scope.workflow.loop_monitors ?? []).forEach((monitor, i) => {
    const at = { rel: scope.rel, path: ['loop_monitors', i] };
    // A workflow_call step of the cycle is its called workflow's entry movement; its other movements are left out
    // when the cycle is matched, so one run of the called workflow counts as one step of the cycle, as in TAKT.
    const inner: string[] = [];
    const global = (name: string, field: string, j: number) => {
      const step = scope.steps.find((s) => s.name === name);
      if (!step) throw new TaktError(`names no step of this workflow`, { ...at, path: [...at.path, field, j] });
      if (step.call) {
        const start = entry(step.call);
        if (field === 'ignore_steps') inner.push(...movementNames(step.call));
        else inner.push(...movementNames(step.call).filter((m) => m !== start));
        return field === 'ignore_steps' ? null : start;
      }
      return `${scope.prefix}${name}`;
    };
    const judge = `${scope.prefix}loop-check-${i + 1}`;
    const jAt = { ...at, path: [...at.path, 'judge'] };
    const jRules = monitor.judge.rules;
    const targets = jRules.map((rule, j) =>
      target(scope, exits, rule, judge, { ...jAt, path: [...jAt.path, 'rules', j] }),
    );
    const step = TaktStep.parse({ ...monitor.judge, name: judge, edit: false });
    const cycle = monitor.cycle.map((n, j) => global(n, 'cycle', j) as string);
    const lead = `The steps ${cycle.join(' → ')} have now run {cycle_count} times in a row. Judge whether this loop is making progress.`;
    const movement = composeMovement(
      files,
      scope,
      { name: judge, step, at: jAt, fragments: [] },
      jRules,
      targets,
      lead,
    );
    out.push({ ...movement, name: judge, description: `Loop check of ${cycle.join(' → ')}` });
    monitors.push({
      cycle,
      ignore: [
        ...new Set([
          ...(monitor.ignore_steps ?? []).flatMap((n, j) => global(n, 'ignore_steps', j) ?? []),
          ...inner.filter((m) => !cycle.includes(m)),
        ]),
      ],
      threshold: monitor.threshold,
      judge,
    });
  });
}

/** Every movement a scope becomes: its steps', its called workflows' (inlined), its loop checks' judges. */
function movementNames(scope: Scope): string[] {
  const steps = scope.steps.flatMap((s) => (s.call ? movementNames(s.call) : [`${scope.prefix}${s.name}`]));
  const judges = (scope.workflow.loop_monitors ?? []).map((_m, i) => `${scope.prefix}loop-check-${i + 1}`);
  return [...steps, ...judges];
}
