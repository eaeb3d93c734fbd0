// How a TAKT step's movement ends: when() rules as a route the engine evaluates on structured results, other rules
// spelled out for the model (all()/any() over the parallel parts' verdicts) with the call each asks for.

import { TaktError, type TaktFiles } from './takt-files';
import type { TaktRule } from './takt-schema';
import type { At, Prepared, Scope, Target } from './takt-scope';
import { parseWhen, whenInner } from './when-expr';

/**
 * The route of a step whose rules are `when()` conditions (and of every system step): the engine evaluates them in
 * order on the structured results, not the model; null for a step the model routes. Mixing when() with conditions
 * the model judges is refused (which would decide first is TAKT's evaluation order, not something to guess here).
 */
export function routeOf(
  files: TaktFiles,
  scope: Scope,
  prepared: Prepared,
  rules: TaktRule[],
  targets: (Target | null)[],
) {
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
export function resultText(schema: Record<string, unknown> | undefined): string {
  const how = schema
    ? `End the step by calling \`complete\` with status "success" and, as \`message\`, only a JSON object that matches this schema:\n\`\`\`json\n${JSON.stringify(schema, null, 2)}\n\`\`\``
    : 'End the step by calling `complete` with status "success" and your result as `message`.';
  return `## When you are done with this step\nThe workflow goes on by itself from this step's result: you do not choose the next step. ${how}`;
}

export function rulesText(rules: TaktRule[], targets: (Target | null)[], parts: Prepared[] | null, at: At): string {
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
export function condition(rule: TaktRule, parts: Prepared[] | null, at: At): string {
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
