// Where a TAKT piece's companion files are read from, and how its errors name a file and a line. TAKT keeps a
// workflow's facets, step fragments and presets in folders beside the workflow folder (builtins/<lang>/{workflows,
// facets, steps, provider-options}); MAESTRO reads them the same way under the folder that holds the piece folder: the
// app's own for built-in pieces, the workspace's `.maestro/` for workspace pieces — there only in the version a person
// accepted, since the agent can write them.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

export interface TaktFiles {
  /** A file's text by its path under the root (`/`-separated), or null when there is none (or none in force). */
  read(rel: string): string | null;
  /** How the file is named in errors. */
  show(rel: string): string;
}

const MAX_FILE_BYTES = 1024 * 1024;

/** `rel` normalized, or null when it leaves the root, is absolute or carries a NUL or a backslash. */
export function safeRel(rel: string): string | null {
  if (rel.includes('\0') || rel.includes('\\') || rel.startsWith('/')) return null;
  const normal = path.posix.normalize(rel);
  return normal === '..' || normal.startsWith('../') || normal === '.' ? null : normal;
}

/** Plain files under `root` (the app's built-in pieces): regular files of at most 1 MiB, never outside the root. */
export function folderFiles(root: string): TaktFiles {
  const realRoot = (() => {
    try {
      return fs.realpathSync(root);
    } catch {
      return path.resolve(root);
    }
  })();
  return {
    read(rel) {
      const safe = safeRel(rel);
      if (safe === null) return null;
      try {
        const real = fs.realpathSync(path.join(root, safe));
        const inside = path.relative(realRoot, real);
        if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
        const stat = fs.statSync(real);
        if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return null;
        return fs.readFileSync(real, 'utf8');
      } catch {
        return null;
      }
    },
    show: (rel) => path.join(root, rel),
  };
}

/** A workspace's `.maestro/` files in the version in force (`inForce`: AcceptedSettings', or the disk without one). */
export function workspaceFiles(workspacePath: string, inForce: (rel: string) => string | null): TaktFiles {
  return {
    read(rel) {
      const safe = safeRel(rel);
      return safe === null ? null : inForce(`.maestro/${safe}`);
    },
    show: (rel) => path.join(workspacePath, '.maestro', rel),
  };
}

/** `files` with each file read at most once: for one load of a catalog, whose pieces share their facets. */
export function readOnce(files: TaktFiles): TaktFiles {
  const texts = new Map<string, string | null>();
  return {
    read(rel) {
      if (!texts.has(rel)) texts.set(rel, files.read(rel));
      return texts.get(rel) as string | null;
    },
    show: (rel) => files.show(rel),
  };
}

/** Reads through `files`, remembering each file's text, so a cached piece is reused only while all of them are unchanged. */
export class RecordedReads implements TaktFiles {
  readonly seen = new Map<string, string | null>();
  constructor(private readonly files: TaktFiles) {}
  read(rel: string): string | null {
    const text = this.files.read(rel);
    this.seen.set(rel, text);
    return text;
  }
  show(rel: string): string {
    return this.files.show(rel);
  }
  /** Whether every file read then reads the same now. */
  static unchanged(files: TaktFiles, seen: ReadonlyMap<string, string | null>): boolean {
    for (const [rel, text] of seen) if (files.read(rel) !== text) return false;
    return true;
  }
}

/** A problem in a TAKT file: where (file under the root, field path) and what. */
export class TaktError extends Error {
  constructor(
    message: string,
    readonly at: { rel: string; path: readonly (string | number)[] } | null = null,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A parsed YAML file, able to say on which line a field is. */
export class YamlFile {
  private constructor(
    readonly rel: string,
    readonly text: string,
    private readonly doc: YAML.Document.Parsed,
    readonly value: unknown,
  ) {}

  static parse(rel: string, text: string): YamlFile {
    const doc = YAML.parseDocument(text);
    if (doc.errors.length > 0) {
      const e = doc.errors[0] as YAML.YAMLError;
      throw new TaktError(`line ${e.linePos?.[0]?.line ?? '?'}: ${e.message.split('\n')[0]}`, { rel, path: [] });
    }
    return new YamlFile(rel, text, doc, doc.toJS());
  }

  /** The line of the field at `at` (or of its nearest parent that is there); null when not even the top is. */
  line(at: readonly (string | number)[]): number | null {
    for (let n = at.length; n > 0; n--) {
      const node = this.doc.getIn(at.slice(0, n) as (string | number)[], true);
      if (node && typeof node === 'object' && 'range' in node && Array.isArray(node.range)) {
        return this.text.slice(0, node.range[0] as number).split('\n').length;
      }
    }
    return null;
  }
}
