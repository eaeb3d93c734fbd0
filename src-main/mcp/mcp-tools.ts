// MCP tools as the engine's tools: named `mcp__<server>__<tool>`, described and shaped by the server verbatim (the
// server validates the arguments; here only "an object" is checked), read-only only when the server says so, and
// answering with the server's result (content.ts). Its annotations say what it needs (permission.ts), and can only
// make a call ask more: a tool runs without asking only when its server says it is read-only AND closed-world
// (`openWorldHint: false`); one that may reach the network asks (its card says so); one that is not read-only (or is
// marked destructive) asks and counts as editing, so a movement with `edit: false` does not run it. Only the person's
// policy (or a grant) lets such a call run without a card.
import { z } from 'zod';
import { callSummary } from '../tools/permission';
import type { AnyToolDef, CallReview, ToolContext, ToolNeed, ToolOutcome } from '../tools/types';

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

type Annotations = ListedTool['annotations'];

/** Read-only only as the server declares it, and never when it also says destructive (a hint can only add). */
const readOnly = (a: Annotations) => a?.readOnlyHint === true && a.destructiveHint !== true;
/** Closed-world only when the server says so: absent means the tool may reach the network (MCP's default). */
const closedWorld = (a: Annotations) => a?.openWorldHint === false;

/** What an MCP tool needs, from its annotations: it may edit unless read-only, and reach the world unless closed. */
export function mcpNeeds(annotations: Annotations): ToolNeed[] {
  const world: ToolNeed[] = closedWorld(annotations) ? [] : ['network', 'external'];
  return readOnly(annotations) ? world : ['edit', ...world];
}

/** What the card adds under the call when the tool may reach the network. */
export const MCP_NETWORK_NOTE =
  'This tool may reach the network: its server does not declare it closed-world (openWorldHint: false).';

/** An MCP call's review: runs only when read-only and closed-world; any other asks, saying why when it is the network. */
export function reviewMcpCall(name: string, annotations: Annotations, args: unknown): CallReview {
  if (readOnly(annotations) && closedWorld(annotations)) return { kind: 'run' };
  const summary = callSummary(name, args);
  return { kind: 'ask', summary: closedWorld(annotations) ? summary : `${summary}\n${MCP_NETWORK_NOTE}` };
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
    readOnly: readOnly(tool.annotations),
    needs: mcpNeeds(tool.annotations),
    review: (args) => reviewMcpCall(name, tool.annotations, args),
    execute: (args: Record<string, unknown>, ctx) => call(args, ctx),
  };
}
