// dispatchRegularToolCalls: checks each call (tool exists, allowed in this movement, JSON and schema-valid
// arguments), runs read-only batches concurrently and anything else one by one, and returns outcomes in call order.
import type { AnyToolDef, ToolContext, ToolOutcome } from '../tools/types';
import type { MovementDefinition } from './pieces/schema';
import { runToolCache, type ToolCache } from './tool-cache';

export type { LlmToolCall as ToolCall } from '../llm/types';

import type { LlmToolCall as ToolCall } from '../llm/types';

export interface DispatchedCall {
  call: ToolCall;
  outcome: ToolOutcome;
  ok: boolean;
}

export const MAX_RESULT_CHARS = 100_000;

const error = (content: string): ToolOutcome => ({ kind: 'result', content: `Error: ${content}` });

export function parseArguments(raw: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: raw.trim() === '' ? {} : JSON.parse(raw) };
  } catch (e) {
    return { ok: false, message: `the arguments are not valid JSON (${(e as Error).message})` };
  }
}

async function executeOne(
  call: ToolCall,
  tools: ReadonlyMap<string, AnyToolDef>,
  movement: MovementDefinition,
  ctx: ToolContext,
): Promise<DispatchedCall> {
  const fail = (message: string): DispatchedCall => ({ call, outcome: error(message), ok: false });
  const tool = tools.get(call.name);
  if (!tool) return fail(`unknown tool ${call.name}; the tools are ${[...tools.keys()].join(', ') || '(none)'}`);
  if (movement.tools && !movement.tools.includes(call.name)) {
    return fail(`${call.name} is not available in movement ${movement.name} (available: ${movement.tools.join(', ')})`);
  }
  const args = parseArguments(call.arguments);
  if (!args.ok) return fail(`${call.name}: ${args.message}`);
  const parsed = tool.parameters.safeParse(args.value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');
    return fail(`${call.name}: invalid arguments — ${issues}`);
  }
  try {
    const outcome = await tool.execute(parsed.data, ctx);
    if (outcome.kind === 'result' && outcome.content.length > MAX_RESULT_CHARS) {
      const cut = outcome.content.length - MAX_RESULT_CHARS;
      return {
        call,
        ok: true,
        outcome: {
          kind: 'result',
          content: `${outcome.content.slice(0, MAX_RESULT_CHARS)}\n… (${cut} more characters cut)`,
        },
      };
    }
    return { call, outcome, ok: !(outcome.kind === 'result' && outcome.content.startsWith('Error')) };
  } catch (e) {
    return fail(`${call.name} failed: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/**
 * executeOne behind the run's read-only tool cache (P4.36): an identical read-only call is answered from it; a call
 * of a tool that may write empties it before running.
 */
async function executeRegularToolCallCached(
  call: ToolCall,
  tools: ReadonlyMap<string, AnyToolDef>,
  movement: MovementDefinition,
  ctx: ToolContext,
  cache: ToolCache,
): Promise<DispatchedCall> {
  const tool = tools.get(call.name);
  const allowed = tool !== undefined && (!movement.tools || movement.tools.includes(call.name));
  if (allowed && tool.readOnly) {
    const hit = cache.get(call.name, call.arguments);
    if (hit !== undefined) return { call, outcome: { kind: 'result', content: hit }, ok: true };
  } else if (allowed) cache.invalidate();
  const dispatched = await executeOne(call, tools, movement, ctx);
  if (allowed && tool.readOnly && dispatched.ok && dispatched.outcome.kind === 'result')
    cache.set(call.name, call.arguments, dispatched.outcome.content);
  return dispatched;
}

/**
 * Runs the calls: all read-only → concurrently (Promise.all); otherwise one by one. Outcomes keep call order.
 * `cache`: the run's read-only tool cache; by default the one of the run whose signal `ctx` carries.
 */
export async function dispatchRegularToolCalls(
  calls: readonly ToolCall[],
  tools: ReadonlyMap<string, AnyToolDef>,
  movement: MovementDefinition,
  ctx: ToolContext,
  cache: ToolCache = runToolCache(ctx.signal),
): Promise<DispatchedCall[]> {
  const allReadOnly = calls.every((c) => tools.get(c.name)?.readOnly === true);
  if (allReadOnly) return Promise.all(calls.map((c) => executeRegularToolCallCached(c, tools, movement, ctx, cache)));
  const results: DispatchedCall[] = [];
  for (const call of calls) results.push(await executeRegularToolCallCached(call, tools, movement, ctx, cache));
  return results;
}
