// Loads Piece YAML files: built-in ones from pieces/, the workspace's own from .maestro/pieces/ (overriding by id).
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { z } from 'zod';
import type { PieceLoadError, PieceSummary } from '../../../src-shared/entities';

const MovementFile = z.looseObject({
  name: z.string().min(1),
  description: z.string().default(''),
  guidance: z.string().default(''),
});

const PieceFile = z
  .looseObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be lowercase letters, digits, - or _'),
    name: z.string().min(1),
    description: z.string().default(''),
    start_movement: z.string().optional(),
    movements: z.array(MovementFile).min(1, 'must list at least one movement'),
  })
  .superRefine((piece, ctx) => {
    const names = piece.movements.map((m) => m.name);
    if (piece.start_movement && !names.includes(piece.start_movement)) {
      ctx.addIssue({
        code: 'custom',
        path: ['start_movement'],
        message: `names no movement of this piece (movements: ${names.join(', ')})`,
      });
    }
  });

export interface MovementDefinition {
  name: string;
  description: string;
  guidance: string;
}

export interface PieceDefinition {
  id: string;
  name: string;
  description: string;
  startMovement: string;
  movements: MovementDefinition[];
  file: string;
  source: 'builtin' | 'workspace';
}

export type PieceLoad = { ok: true; piece: PieceDefinition } | { ok: false; error: PieceLoadError };

export function loadPieceFile(file: string, source: PieceDefinition['source']): PieceLoad {
  const fail = (message: string): PieceLoad => ({ ok: false, error: { file, message } });
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return fail(`cannot read: ${(error as Error).message}`);
  }
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) {
    const e = doc.errors[0] as YAML.YAMLError;
    return fail(`line ${e.linePos?.[0]?.line ?? '?'}: ${e.message.split('\n')[0]}`);
  }
  const parsed = PieceFile.safeParse(doc.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const field = issue.path.join('.');
    const node = issue.path.length > 0 ? doc.getIn(issue.path, true) : undefined;
    const line =
      node && typeof node === 'object' && 'range' in node && Array.isArray(node.range)
        ? ` (line ${lineOf(text, node.range[0] as number)})`
        : '';
    return fail(`${field || 'piece'}${line}: ${issue.message}`);
  }
  const p = parsed.data;
  return {
    ok: true,
    piece: {
      id: p.id,
      name: p.name,
      description: p.description,
      startMovement: p.start_movement ?? (p.movements[0] as MovementDefinition).name,
      movements: p.movements.map((m) => ({ name: m.name, description: m.description, guidance: m.guidance })),
      file,
      source,
    },
  };
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

export const summarize = (piece: PieceDefinition): PieceSummary => ({
  id: piece.id,
  name: piece.name,
  description: piece.description,
  startMovement: piece.startMovement,
  movements: piece.movements.map((m) => ({ name: m.name, description: m.description })),
  source: piece.source,
});

export class PieceCatalog {
  constructor(private readonly builtinDir: string) {}

  /** Built-in pieces, overridden by id by the workspace's own; broken files are reported, not skipped silently. */
  load(workspacePath?: string | null): { pieces: PieceDefinition[]; errors: PieceLoadError[] } {
    const byId = new Map<string, PieceDefinition>();
    const errors: PieceLoadError[] = [];
    const dirs: [string, PieceDefinition['source']][] = [[this.builtinDir, 'builtin']];
    if (workspacePath) dirs.push([path.join(workspacePath, '.maestro', 'pieces'), 'workspace']);
    for (const [dir, source] of dirs) {
      for (const file of yamlFiles(dir)) {
        const loaded = loadPieceFile(file, source);
        if (loaded.ok) byId.set(loaded.piece.id, loaded.piece);
        else errors.push(loaded.error);
      }
    }
    return { pieces: [...byId.values()].sort((a, b) => a.id.localeCompare(b.id)), errors };
  }

  get(id: string, workspacePath?: string | null): PieceDefinition | undefined {
    return this.load(workspacePath).pieces.find((p) => p.id === id);
  }
}

function yamlFiles(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.yaml') || n.endsWith('.yml'))
    .sort()
    .map((n) => path.join(dir, n));
}
