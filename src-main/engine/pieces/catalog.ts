// Loads Piece YAML files: built-in ones from pieces/, the workspace's own from .maestro/pieces/ (overriding by id),
// those in the version a person accepted when the catalog is given the accepted settings. MAESTRO's format and
// TAKT-style files are both accepted; a broken file is reported with file, line and field.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { z } from 'zod';
import type { PieceLoadError, PieceSummary } from '../../../src-shared/entities';
import { describeIssues } from '../../../src-shared/issues';
import { type AcceptedSettings, onDisk, pieceFilesOnDisk } from '../../workspace/accepted-settings';
import { fromPieceFile, type PieceDefinition, PieceFile } from './schema';
import { convertTakt, looksLikeTakt } from './takt';
import {
  folderFiles,
  RecordedReads,
  readOnce,
  TaktError,
  type TaktFiles,
  workspaceFiles,
  YamlFile,
} from './takt-files';

export type { MovementDefinition, PieceDefinition } from './schema';

/** A file's piece, or null for a TAKT workflow that is only called by others; `reads`: the other files it used. */
export type PieceLoad =
  | { ok: true; piece: PieceDefinition | null; reads?: ReadonlyMap<string, string | null> }
  | { ok: false; error: PieceLoadError; reads?: ReadonlyMap<string, string | null> };

/** Where a TAKT piece's companion files are: `files` (its root), the piece file being `rel` under it. */
export interface TaktPlace {
  files: TaktFiles;
  rel: string;
}

/** A piece file on its own: a TAKT file's companions are read from the folder holding its folder. */
export function loadPieceFile(file: string, source: PieceDefinition['source']): PieceLoad {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { ok: false, error: { file, message: `cannot read: ${(error as Error).message}` } };
  }
  const dir = path.dirname(file);
  const place = { files: folderFiles(path.dirname(dir)), rel: `${path.basename(dir)}/${path.basename(file)}` };
  return parsePieceText(text, file, source, place);
}

/** A piece file's text parsed and checked; `file` names it in errors and in the piece. */
export function parsePieceText(
  text: string,
  file: string,
  source: PieceDefinition['source'],
  place: TaktPlace = {
    files: folderFiles(path.dirname(path.dirname(file))),
    rel: `${path.basename(path.dirname(file))}/${path.basename(file)}`,
  },
): PieceLoad {
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

  if (looksLikeTakt(raw)) return parseTakt(text, file, source, place);

  const parsed = PieceFile.safeParse(raw);
  if (!parsed.success) return fail(explain(parsed.error.issues[0] as z.core.$ZodIssue));
  return { ok: true, piece: fromPieceFile(parsed.data, file, source) };
}

function parseTakt(text: string, file: string, source: PieceDefinition['source'], place: TaktPlace): PieceLoad {
  const reads = new RecordedReads(place.files);
  const seeded: TaktFiles = {
    read: (rel) => (rel === place.rel ? text : reads.read(rel)),
    show: (rel) => reads.show(rel),
  };
  let conversion: ReturnType<typeof convertTakt>;
  try {
    conversion = convertTakt(place.rel, seeded);
  } catch (error) {
    if (!(error instanceof TaktError)) throw error;
    return { ok: false, error: { file, message: `TAKT piece: ${taktWhere(error, place, seeded)}` }, reads: reads.seen };
  }
  if (conversion.kind === 'callable') return { ok: true, piece: null, reads: reads.seen };
  const converted = PieceFile.safeParse(conversion.piece);
  if (!converted.success) {
    return {
      ok: false,
      error: {
        file,
        message: `TAKT piece (converted): ${describeIssues(converted.error.issues, { whole: 'piece', limit: 1 })}`,
      },
      reads: reads.seen,
    };
  }
  return { ok: true, piece: { ...fromPieceFile(converted.data, file, source), format: 'takt' }, reads: reads.seen };
}

/** "<field> (line N): message", with the file named when it is not the piece file itself. */
function taktWhere(error: TaktError, place: TaktPlace, files: TaktFiles): string {
  if (!error.at) return error.message;
  const { rel, path: at } = error.at;
  let line: number | null = null;
  const text = files.read(rel);
  if (text !== null) {
    try {
      line = YamlFile.parse(rel, text).line(at);
    } catch {}
  }
  const where = [
    rel === place.rel ? '' : `${files.show(rel)}: `,
    at.join('.') || 'workflow',
    line ? ` (line ${line})` : '',
  ];
  return `${where.join('')}: ${error.message}`;
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
export type PieceGate = Pick<AcceptedSettings, 'pieceFiles' | 'inForceOf'>;
const ungated: PieceGate = {
  pieceFiles: pieceFilesOnDisk,
  inForceOf: (workspacePath) => (rel) => onDisk(workspacePath, rel),
};

export class PieceCatalog {
  /** Parsed files by path, reused while the file's mtime and size (and the TAKT files it read) are unchanged. */
  private readonly cache = new Map<string, { mtimeMs: number; size: number; loaded: PieceLoad }>();
  /** Parsed workspace pieces by path, reused while their text in force (and their TAKT files') is the same. */
  private readonly workspaceCache = new Map<string, { text: string; loaded: PieceLoad }>();
  /** The built-in pieces' TAKT files: under the folder that holds the pieces folder. */
  private readonly builtinFiles: TaktFiles;

  /** `gate`: the accepted settings, so a piece file the agent wrote or changed is not offered (the app passes it). */
  constructor(
    private readonly builtinDir: string,
    private readonly gate: PieceGate = ungated,
  ) {
    this.builtinFiles = folderFiles(path.dirname(builtinDir));
  }

  private loadCached(file: string, source: PieceDefinition['source'], files: TaktFiles): PieceLoad {
    const place = { files, rel: `${path.basename(this.builtinDir)}/${path.basename(file)}` };
    let stat: fs.Stats;
    let text: string;
    try {
      stat = fs.statSync(file);
      const hit = this.cache.get(file);
      if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size && unchanged(files, hit.loaded)) {
        return hit.loaded;
      }
      text = fs.readFileSync(file, 'utf8');
    } catch (error) {
      return { ok: false, error: { file, message: `cannot read: ${(error as Error).message}` } };
    }
    const loaded = parsePieceText(text, file, source, place);
    this.cache.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, loaded });
    return loaded;
  }

  /**
   * A workspace piece in the version in force; null when none applies (never accepted, or deleted and accepted).
   * `files`: the workspace's `.maestro/` in force, where TAKT pieces find their companions (in that version too).
   */
  private loadWorkspacePiece(workspacePath: string, rel: string, files: TaktFiles): PieceLoad | null {
    const file = path.join(workspacePath, rel);
    const place = { files, rel: path.posix.relative('.maestro', rel) };
    let text: string | null;
    try {
      text = files.read(place.rel);
      if (text === null) return null;
      const hit = this.workspaceCache.get(file);
      if (hit?.text === text && unchanged(files, hit.loaded)) return hit.loaded;
    } catch (error) {
      return { ok: false, error: { file, message: (error as Error).message } };
    }
    const loaded = parsePieceText(text, file, 'workspace', place);
    this.workspaceCache.set(file, { text, loaded });
    return loaded;
  }

  /** Built-in pieces, overridden by id by the workspace's own; broken files are reported, not skipped silently. */
  load(workspacePath?: string | null): { pieces: PieceDefinition[]; errors: PieceLoadError[] } {
    const byId = new Map<string, PieceDefinition>();
    const errors: PieceLoadError[] = [];
    const add = (loaded: PieceLoad | null) => {
      if (loaded?.ok && loaded.piece) byId.set(loaded.piece.id, loaded.piece);
      else if (loaded && !loaded.ok) errors.push(loaded.error);
    };
    const builtin = readOnce(this.builtinFiles);
    for (const file of yamlFiles(this.builtinDir)) add(this.loadCached(file, 'builtin', builtin));
    if (workspacePath) {
      let files: TaktFiles;
      try {
        files = readOnce(workspaceFiles(workspacePath, this.gate.inForceOf(workspacePath)));
      } catch (error) {
        const file = path.join(workspacePath, '.maestro', 'pieces');
        return { pieces: [...byId.values()], errors: [...errors, { file, message: (error as Error).message }] };
      }
      for (const rel of this.gate.pieceFiles(workspacePath)) add(this.loadWorkspacePiece(workspacePath, rel, files));
    }
    return { pieces: [...byId.values()].sort((a, b) => a.id.localeCompare(b.id)), errors };
  }

  get(id: string, workspacePath?: string | null): PieceDefinition | undefined {
    return this.load(workspacePath).pieces.find((p) => p.id === id);
  }
}

/** Whether the TAKT files a cached load read still read the same (a piece without any: yes). */
const unchanged = (files: TaktFiles, loaded: PieceLoad) =>
  !loaded.reads || RecordedReads.unchanged(files, loaded.reads);

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
