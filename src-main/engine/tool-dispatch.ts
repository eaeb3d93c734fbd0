// dispatchRegularToolCalls: checks each call (tool exists, allowed in this movement, JSON and schema-valid
// arguments), passes it through the job's gate (Auto Prompter) if any, decides whether it runs, asks a person or is
// refused (one permission model for every tool: tools/permission.ts), runs read-only batches concurrently and
// anything else one by one, and returns outcomes in call order.
import type { ToolCallDenial } from '../../src-shared/entities';
import { fail, ok } from '../tools/outcome';
import { type ToolRules, withheld } from '../tools/permission';
import type { AnyToolDef, ToolContext, ToolOutcome } from '../tools/types';
import type { MovementDefinition } from './pieces/schema';
import { callKey, type ToolCache } from './tool-cache';

export type { LlmToolCall as ToolCall } from '../llm/types';

import { describeIssues } from '../../src-shared/issues';
import type { LlmToolCall as ToolCall } from '../llm/types';

export interface DispatchedCall {
  call: ToolCall;
  outcome: ToolOutcome;
}

export const MAX_RESULT_CHARS = 100_000;

/**
 * What a gate between the argument checks and the tool's own permission/approval decides about one call (the
 * Auto Prompter, spec §4.1): go on as usual, answer with an Error instead of running, or run once without asking.
 */
export type GateVerdict =
  | { kind: 'proceed' }
  | { kind: 'deny'; message: string; denial: ToolCallDenial }
  | { kind: 'approve_once' };

export interface ToolGate {
  /** `args`: the schema-parsed arguments of a call of an existing tool the movement allows. */
  check(tool: string, args: unknown): GateVerdict;
}

const PROCEED: GateVerdict = { kind: 'proceed' };

export function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: raw.trim() === '' ? {} : JSON.parse(raw) };
  } catch (e) {
    return { ok: false, message: `the arguments are not valid JSON (${(e as Error).message})` };
  }
}

/** A call that passed the checks: its tool and its schema-parsed arguments; or the Error result that answers it. */
type Checked = { ok: true; tool: AnyToolDef; args: unknown } | { ok: false; failed: DispatchedCall };

/** Existence, movement allowance, JSON, schema — in that order; the first failure answers the call. */
function checkCall(call: ToolCall, tools: ReadonlyMap<string, AnyToolDef>, movement: MovementDefinition): Checked {
  const refuse = (message: string): Checked => ({ ok: false, failed: { call, outcome: fail(message) } });
  const tool = tools.get(call.name);
  if (!tool) return refuse(`unknown tool ${call.name}; the tools are ${[...tools.keys()].join(', ') || '(none)'}`);
  if (movement.tools && !movement.tools.includes(call.name)) {
    return refuse(
      `${call.name} is not available in movement ${movement.name} (available: ${movement.tools.join(', ')})`,
    );
  }
  const args = parseArguments(call.arguments);
  if (!args.ok) return refuse(`${call.name}: ${args.message}`);
  const parsed = tool.parameters.safeParse(args.value);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues, { whole: 'arguments' });
    return refuse(`${call.name}: invalid arguments — ${issues}`);
  }
  return { ok: true, tool, args: parsed.data };
}

/** Runs a call that may run (allowed, or approved); a throw becomes an Error result, a long result is cut. */
export async function execute(
  call: ToolCall,
  tool: AnyToolDef,
  args: unknown,
  ctx: ToolContext,
): Promise<DispatchedCall> {
  // The call's progress reaches the run's sink with the call it belongs to.
  const sink = ctx.onToolProgress;
  const callCtx: ToolContext = sink
    ? { ...ctx, progress: (update) => sink({ id: call.id, name: call.name }, update) }
    : ctx;
  try {
    // The workspace as it was before a step that may change it (a checkpoint); it never holds the step up for long.
    if (!tool.readOnly) await ctx.beforeChange?.(call.id);
    const outcome = await tool.execute(args, callCtx);
    if (outcome.kind === 'result' && outcome.content.length > MAX_RESULT_CHARS) {
      const cut = outcome.content.length - MAX_RESULT_CHARS;
      const content = `${outcome.content.slice(0, MAX_RESULT_CHARS)}\n… (${cut} more characters cut)`;
      return { call, outcome: { ...outcome, content } };
    }
    return { call, outcome };
  } catch (e) {
    return { call, outcome: fail(`${call.name} failed: ${e instanceof Error ? e.message : String(e)}`) };
  }
}

/**
 * One call: checked, then the gate (after the checks, before the permission decision), then decided (run, ask a
 * person, refuse), then answered from the run's read-only tool cache (P4.36) or run. A call of a tool that may write
 * empties the cache first.
 */
async function executeRegularToolCall(
  call: ToolCall,
  tools: ReadonlyMap<string, AnyToolDef>,
  movement: MovementDefinition,
  ctx: ToolContext,
  cache: ToolCache,
  gate: ToolGate | undefined,
  rules: ToolRules,
): Promise<DispatchedCall> {
  const known = tools.get(call.name);
  // Even a call whose arguments turn out invalid empties the cache (on the safe side).
  if (known && !known.readOnly && (!movement.tools || movement.tools.includes(call.name))) cache.invalidate();
  const checked = checkCall(call, tools, movement);
  if (!checked.ok) return checked.failed;
  const { tool, args } = checked;
  const verdict: GateVerdict = gate ? gate.check(call.name, args) : PROCEED;
  if (verdict.kind === 'deny') return { call, outcome: { ...fail(verdict.message), denial: verdict.denial } };
  const instead = withheld(tool, args, ctx, rules.ruleFor(call.name, args), verdict.kind === 'approve_once');
  if (instead) return { call, outcome: instead };
  const key = tool.readOnly && tool.cacheable !== false ? callKey(call.name, call.arguments) : null;
  if (key !== null) {
    const hit = cache.get(key);
    if (hit !== undefined) return { call, outcome: ok(hit) };
  }
  const dispatched = await execute(call, tool, args, ctx);
  const { outcome } = dispatched;
  if (key !== null && outcome.kind === 'result' && outcome.ok) cache.set(key, outcome.content);
  return dispatched;
}

/**
 * Runs the calls: all read-only → concurrently (Promise.all); otherwise one by one. Outcomes keep call order.
 * `cache`: the run's read-only tool cache. `rules`: the Workspace Tool Policy's rules and the task's grants. `gate`:
 * the job's Auto Prompter, or undefined when it is off (then no call is looked at).
 */
export async function dispatchRegularToolCalls(
  calls: readonly ToolCall[],
  tools: ReadonlyMap<string, AnyToolDef>,
  movement: MovementDefinition,
  ctx: ToolContext,
  cache: ToolCache,
  rules: ToolRules,
  gate?: ToolGate,
): Promise<DispatchedCall[]> {
  const run = (c: ToolCall) => executeRegularToolCall(c, tools, movement, ctx, cache, gate, rules);
  const allReadOnly = calls.every((c) => tools.get(c.name)?.readOnly === true);
  // Each call's gate check runs before its first await, so checks happen in call order here too.
  if (allReadOnly) return Promise.all(calls.map(run));
  const results: DispatchedCall[] = [];
  for (const call of calls) results.push(await run(call));
  return results;
}
