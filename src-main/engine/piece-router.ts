// The LLM Router (spec §1 CLASSIFY): a task created without a piece, outside a pinned space, gets the piece the model
// picks from the available ones — one generation with a single `choose_piece` tool — before its first job starts.
// Any failure (the model errs, names no piece or an unknown one) leaves the default piece, with the reason (P10.06).
import { z } from 'zod';
import type { Task } from '../../src-shared/entities';
import type { LlmPort } from './llm-port';
import type { PieceDefinition } from './pieces/schema';
import { parseArguments } from './tool-dispatch';
import { toolSpec } from './tool-specs';

export const CHOOSE_PIECE = 'choose_piece';

export type RouteOutcome = { kind: 'chosen'; pieceId: string } | { kind: 'fallback'; reason: string };

const SYSTEM = `You route a task to the workflow ("piece") that suits it best. Read the task and the pieces' descriptions,
then call ${CHOOSE_PIECE} once with the id of one of the listed pieces. Do not do the task itself.`;

export async function routePiece(
  llm: LlmPort,
  task: Pick<Task, 'title' | 'instruction'>,
  pieces: readonly Pick<PieceDefinition, 'id' | 'name' | 'description'>[],
  signal: AbortSignal,
): Promise<RouteOutcome> {
  if (pieces.length === 0) return { kind: 'fallback', reason: 'no piece to choose from' };
  const ids = pieces.map((p) => p.id) as [string, ...string[]];
  const args = z.strictObject({ pieceId: z.enum(ids).describe('The id of the chosen piece.') });
  const listing = pieces.map((p) => `- ${p.id}: ${p.name} — ${p.description}`).join('\n');
  let reply: Awaited<ReturnType<LlmPort['generate']>>;
  try {
    reply = await llm.generate({
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'user', content: `# Pieces\n${listing}\n\n# Task: ${task.title}\n${task.instruction}` },
      ],
      tools: [toolSpec(CHOOSE_PIECE, 'Choose the piece that runs this task.', args)],
      signal,
    });
  } catch (error) {
    return { kind: 'fallback', reason: `the router's model failed: ${(error as Error).message}` };
  }
  const call = reply.toolCalls.find((c) => c.name === CHOOSE_PIECE);
  if (!call) return { kind: 'fallback', reason: 'the router answered without choosing a piece' };
  const parsed = parseArguments(call.arguments);
  const chosen = parsed.ok ? args.safeParse(parsed.value) : undefined;
  if (!chosen?.success) {
    const named = parsed.ok ? JSON.stringify((parsed.value as { pieceId?: unknown })?.pieceId ?? null) : 'nothing';
    return { kind: 'fallback', reason: `the router named ${named}, which is no piece here` };
  }
  return { kind: 'chosen', pieceId: chosen.data.pieceId };
}
