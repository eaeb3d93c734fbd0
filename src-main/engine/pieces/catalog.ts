// Loads Piece YAML files: built-in ones from pieces/, the workspace's own from .maestro/pieces/ (overriding by id),
// those in the version a person accepted when the catalog is given the accepted settings. MAESTRO's format and
// TAKT-style files are both accepted; a broken file is reported with file, line and field.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { z } from 'zod';
import type { PieceLoadError, PieceSummary } from '../../../src-shared/entities';
import { type AcceptedSettings, onDisk, pieceFilesOnDisk } from '../../workspace/accepted-settings';
import { fromPieceFile, type PieceDefinition, PieceFile } from './schema';
import { convertTakt, looksLikeTakt, TaktPieceFile } from './takt';

export type { MovementDefinition, PieceDefinition } from './schema';

export type PieceLoad = { ok: true; piece: PieceDefinition } | { ok: false; error: PieceLoadError };

export function loadPieceFile(file: string, source: PieceDefinition['source']): PieceLoad {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { ok: false, error: { file, message: `cannot read: ${(error as Error).message}` } };
  }
  return parsePieceText(text, file, source);
}

/** A piece file's text parsed and checked; `file` names it in errors and in the piece. */
export function parsePieceText(text: string, file: string, source: PieceDefinition['source']): PieceLoad {
  const fail = (message: string): PieceLoad => ({ ok: false, error: { file, message } });
  const doc = YAML.parseDocument(text);
  if (doc.errors.length > 0) {
    const e = doc.errors[0] as YAML.YAMLError;
    return fail(`line ${e.linePos?.[0]?.line ?? '?'}: ${e.message.split('\n')[0]}`);
  }
  const raw: unknown = doc.toJS();
  const explain = (issue: z.core.$ZodIssue, rawPath = issue.path) => {
    const field = issue.path.join('.');
    const node = rawPath.length > 0 ? doc.getIn(rawPath as (string | number)[], true) : undefined;
    const line =
      node && typeof node === 'object' && 'range' in node && Array.isArray(node.range)
        ? ` (line ${lineOf(text, node.range[0] as number)})`
        : '';
    return `${field || 'piece'}${line}: ${issue.message}`;
  };

  if (looksLikeTakt(raw)) {
    const takt = TaktPieceFile.safeParse(raw);
    if (!takt.success) return fail(`TAKT piece: ${explain(takt.error.issues[0] as z.core.$ZodIssue)}`);
    const converted = PieceFile.safeParse(convertTakt(takt.data, file));
    if (!converted.success) {
      // Field paths of the converted piece map back to the TAKT file's steps/movements.
      const issue = converted.error.issues[0] as z.core.$ZodIssue;
      const list = takt.data.steps ? 'steps' : 'movements';
      const rawPath = issue.path.map((p) => (p === 'movements' ? list : p));
      return fail(`TAKT piece (converted): ${explain({ ...issue, path: rawPath }, [])}`);
    }
    return { ok: true, piece: { ...fromPieceFile(converted.data, file, source), format: 'takt' } };
  }

  const parsed = PieceFile.safeParse(raw);
  if (!parsed.success) return fail(explain(parsed.error.issues[0] as z.core.$ZodIssue));
  return { ok: true, piece: fromPieceFile(parsed.data, file, source) };
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

/** Which of a workspace's piece files apply, and their text: AcceptedSettings, or (without one) the files on disk. */
export type PieceGate = Pick<AcceptedSettings, 'pieceFiles' | 'inForce'>;
const ungated: PieceGate = { pieceFiles: pieceFilesOnDisk, inForce: onDisk };

export class PieceCatalog {
  /** Parsed files by path, reused while the file's mtime and size are unchanged. */
  private readonly cache = new Map<string, { mtimeMs: number; size: number; loaded: PieceLoad }>();
  /** Parsed workspace pieces by path, reused while their text in force is the same. */
  private readonly workspaceCache = new Map<string, { text: string; loaded: PieceLoad }>();

  /** `gate`: the accepted settings, so a piece file the agent wrote or changed is not offered (the app passes it). */
  constructor(
    private readonly builtinDir: string,
    private readonly gate: PieceGate = ungated,
  ) {}

  private loadCached(file: string, source: PieceDefinition['source']): PieceLoad {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      return loadPieceFile(file, source);
    }
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.loaded;
    const loaded = loadPieceFile(file, source);
    this.cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, loaded });
    return loaded;
  }

  /** A workspace piece in the version in force; null when none applies (never accepted, or deleted and accepted). */
  private loadWorkspacePiece(workspacePath: string, rel: string): PieceLoad | null {
    const file = path.join(workspacePath, rel);
    let text: string | null;
    try {
      text = this.gate.inForce(workspacePath, rel);
    } catch (error) {
      return { ok: false, error: { file, message: (error as Error).message } };
    }
    if (text === null) return null;
    const hit = this.workspaceCache.get(file);
    if (hit?.text === text) return hit.loaded;
    const loaded = parsePieceText(text, file, 'workspace');
    this.workspaceCache.set(file, { text, loaded });
    return loaded;
  }

  /** Built-in pieces, overridden by id by the workspace's own; broken files are reported, not skipped silently. */
  load(workspacePath?: string | null): { pieces: PieceDefinition[]; errors: PieceLoadError[] } {
    const byId = new Map<string, PieceDefinition>();
    const errors: PieceLoadError[] = [];
    const add = (loaded: PieceLoad | null) => {
      if (loaded?.ok) byId.set(loaded.piece.id, loaded.piece);
      else if (loaded) errors.push(loaded.error);
    };
    for (const file of yamlFiles(this.builtinDir)) add(this.loadCached(file, 'builtin'));
    if (workspacePath) {
      for (const rel of this.gate.pieceFiles(workspacePath)) add(this.loadWorkspacePiece(workspacePath, rel));
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
