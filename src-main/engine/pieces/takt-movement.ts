// One TAKT step as a MAESTRO movement: the persona (system-style guidance), the instruction (takt-step-text.ts) with
// the workflow-wide rules and the rules as the model reads them (takt-rules.ts), the tools and the edit permission.
// A parallel step's parts become one movement that does them in turn.

import { SELECT_FACETS_TOOL } from '../../tools/names';
import { TaktError, type TaktFiles } from './takt-files';
import { condition, resultText, routeOf, rulesText } from './takt-rules';
import type { TaktRule } from './takt-schema';
import type { At, Prepared, Scope, Target, WorkflowRule } from './takt-scope';
import { facetTexts, reportsOf, reportsText, type StepText, stepText } from './takt-step-text';
import { inspectTools, partStep, teamLeaderBody } from './takt-team-leader';
import { stepPermissions } from './takt-tools';

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

/** The parts of a workflow a parallel part calls: its one step's parts, or that step itself (takt-prepare.ts checked). */
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

function permissionsOf(files: TaktFiles, scope: Scope, prepared: Prepared) {
  try {
    return stepPermissions(prepared.step, files, scope.rel, scope.workflow.capabilities);
  } catch (error) {
    if (error instanceof TaktError && !error.at) throw new TaktError(error.message, prepared.at);
    throw error;
  }
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
