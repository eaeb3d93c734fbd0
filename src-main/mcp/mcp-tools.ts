// MCP tools as the engine's tools: named `mcp__<server>__<tool>`, described and shaped by the server verbatim (the
// server validates the arguments; here only "an object" is checked), read-only only when the server says so, and
// answering with the text of the server's result. Its annotations say what it needs (permission.ts): a tool the
// server marks read-only runs without asking; any other asks a person (unless the policy allows it) and counts as
// editing, so a movement with `edit: false` does not run it.
import { z } from 'zod';
import { fail, ok } from '../tools/outcome';
import { callSummary } from '../tools/permission';
import type { AnyToolDef, ToolNeed, ToolOutcome, ToolResult } from '../tools/types';

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

/** One content block of a tool result (the parts used here). */
export interface ResultContent {
  type: string;
  text?: string;
  mimeType?: string;
  uri?: string;
  resource?: { uri: string; text?: string; mimeType?: string };
}

/** A `tools/call` result as the server sends it. */
export interface CallToolResult {
  content?: ResultContent[];
  structuredContent?: unknown;
  isError?: boolean;
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
  call: (args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolOutcome>,
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
    execute: (args: Record<string, unknown>, ctx) => call(args, ctx.signal),
  };
}

/** What the model gets: text blocks joined, other blocks named; a result the server marks isError is a failure. */
export function toolResult(result: CallToolResult): ToolResult {
  const parts = (result.content ?? []).map(contentText);
  if (parts.length === 0 && result.structuredContent !== undefined)
    parts.push(JSON.stringify(result.structuredContent));
  const text = parts.join('\n');
  return result.isError ? fail(text || 'the tool failed without saying why') : ok(text);
}

function contentText(c: ResultContent): string {
  switch (c.type) {
    case 'text':
      return c.text ?? '';
    case 'resource':
      return (
        c.resource?.text ??
        `[resource ${c.resource?.uri ?? ''}${c.resource?.mimeType ? ` (${c.resource.mimeType})` : ''}]`
      );
    case 'resource_link':
      return `[resource link ${c.uri ?? ''}]`;
    default:
      return `[${c.type}${c.mimeType ? ` ${c.mimeType}` : ''} content not shown]`;
  }
}
