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

export const toolSpec = (name: string, description: string, parameters: z.ZodType): ToolSpec => {
  const { $schema: _schema, ...schema } = z.toJSONSchema(parameters, { io: 'input' }) as Record<string, unknown>;
  return { type: 'function', function: { name, description, parameters: schema } };
};

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
