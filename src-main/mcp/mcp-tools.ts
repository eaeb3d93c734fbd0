// MCP tools as the engine's tools: named `mcp__<server>__<tool>`, described and shaped by the server verbatim (the
// server validates the arguments; here only "an object" is checked), read-only only when the server says so, and
// answering with the server's result (content.ts). Its annotations say what it needs (permission.ts): a tool the
// server marks read-only runs without asking; any other asks a person (unless the policy allows it) and counts as
// editing, so a movement with `edit: false` does not run it.
import { z } from 'zod';
import { callSummary } from '../tools/permission';
import type { AnyToolDef, ToolContext, ToolNeed, ToolOutcome } from '../tools/types';

export const MCP_TOOL_PREFIX = 'mcp__';
const MAX_TOOL_NAME = 64;

/** A tool as a server lists it (the parts used here). */
export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** MCP's hints (defaults per the spec: not read-only, destructive, open world). */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };
}

/** What an MCP tool needs, from its annotations: nothing when read-only; else it may edit, and reach the world. */
export function mcpNeeds(annotations: ListedTool['annotations']): ToolNeed[] {
  if (annotations?.readOnlyHint === true) return annotations.openWorldHint === true ? ['network'] : [];
  return annotations?.openWorldHint === false ? ['edit'] : ['edit', 'network', 'external'];
}

/** `mcp__<server>__<tool>` with anything outside [A-Za-z0-9_-] made `_`, cut to 64 characters. */
export function mcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_TOOL_NAME);
}

/**
 * Names for every (server, tool): listed by server then tool name, a name already taken (two tools that differ only
 * in characters made `_`, or past the 64th) gets `_2`, `_3`…, so the same listing always gets the same names.
 */
export function assignToolNames<T extends { server: string; tool: ListedTool }>(
  tools: readonly T[],
): (T & {
  name: string;
})[] {
  const byOrigin = [...tools].sort((a, b) => compare(a.server, b.server) || compare(a.tool.name, b.tool.name));
  const taken = new Set<string>();
  return byOrigin.map((t) => {
    const base = mcpToolName(t.server, t.tool.name);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_TOOL_NAME - `_${n}`.length)}_${n}`;
    taken.add(name);
    return { ...t, name };
  });
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** An MCP tool's arguments: any JSON object; the server checks them against its own schema. */
const AnyObject = z.record(z.string(), z.unknown());

export function mcpToolDef(
  name: string,
  tool: ListedTool,
  call: (args: Record<string, unknown>, ctx: ToolContext) => Promise<ToolOutcome>,
): AnyToolDef {
  return {
    name,
    description: tool.description ?? '',
    parameters: AnyObject,
    jsonSchema: tool.inputSchema,
    readOnly: tool.annotations?.readOnlyHint === true,
    needs: mcpNeeds(tool.annotations),
    review: (args) =>
      tool.annotations?.readOnlyHint === true ? { kind: 'run' } : { kind: 'ask', summary: callSummary(name, args) },
    execute: (args: Record<string, unknown>, ctx) => call(args, ctx),
  };
}
