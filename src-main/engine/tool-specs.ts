// The request's `tools` array: regular tools of the piece, then `transition` (only when the piece has transitions),
// then `complete` — computed once per job, so it is byte-stable across movements (spec 3.1, 3.4).

import { z } from 'zod';
import type { ToolSpec } from '../llm/types';
import type { AnyToolDef } from '../tools/types';
import type { PieceDefinition } from './pieces/schema';
import { transitionTargets } from './pieces/schema';
import {
  COMPLETE,
  CompleteArgs,
  completeDescription,
  TRANSITION,
  transitionArgs,
  transitionDescription,
} from './terminal-tools';

/**
 * JSON schemas by the zod schema they come from: most tools' parameters are module constants, and deriving their
 * schema again for every job cost a job's start more than a millisecond (issue 28). Read only, never changed.
 */
const JSON_SCHEMAS = new WeakMap<z.ZodType, Record<string, unknown>>();

function jsonSchemaOf(parameters: z.ZodType): Record<string, unknown> {
  let schema = JSON_SCHEMAS.get(parameters);
  if (!schema) {
    const { $schema: _schema, ...rest } = z.toJSONSchema(parameters, { io: 'input' }) as Record<string, unknown>;
    schema = rest;
    JSON_SCHEMAS.set(parameters, schema);
  }
  return schema;
}

export const toolSpec = (name: string, description: string, parameters: z.ZodType): ToolSpec => ({
  type: 'function',
  function: { name, description, parameters: jsonSchemaOf(parameters) },
});

/** A tool's spec: its own JSON schema verbatim when it brings one (MCP tools), else the one of its zod parameters. */
export const specOf = (tool: AnyToolDef): ToolSpec =>
  tool.jsonSchema
    ? { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.jsonSchema } }
    : toolSpec(tool.name, tool.description, tool.parameters);

/** Tools of the registry that some movement of the piece may call, in registry order. */
export function pieceTools(piece: PieceDefinition, registry: readonly AnyToolDef[]): AnyToolDef[] {
  const named = piece.movements.some((m) => m.tools === null)
    ? null
    : new Set(piece.movements.flatMap((m) => m.tools ?? []));
  return registry.filter((t) => named === null || named.has(t.name));
}

export function buildToolSpecs(piece: PieceDefinition, tools: readonly AnyToolDef[]): ToolSpec[] {
  const specs = tools.map(specOf);
  if (transitionTargets(piece).length > 0)
    specs.push(toolSpec(TRANSITION, transitionDescription, transitionArgs(piece)));
  specs.push(toolSpec(COMPLETE, completeDescription, CompleteArgs));
  return specs;
}
