// The workspace sandbox: a model-given path is resolved against the workspace folder, and anything that ends up
// outside it — by `..`, by an absolute path, or through a symbolic link (checked on the real path of the nearest
// existing ancestor when the path does not exist yet) — is refused before anything is touched (P4.33). Refused on
// every platform before any file system call: NUL characters, Windows drive (`C:\x`, `C:x`), UNC and device paths
// (`\\server\share`, `//server/share`, `\\?\C:\x`), a leading `~` (a home folder the model may mean), paths
// longer than MAX_PATH_CHARS, and `..` that leaves the workspace when `\` is read as a separator too.
import fs from 'node:fs';
import path from 'node:path';

export type Resolved =
  | {
      ok: true;
      /** The real absolute path: symlinks resolved, so reading or writing it never leaves the workspace. */
      path: string;
      /** The workspace's real path. */
      root: string;
      /** Relative to the workspace, with `/` separators; `.` for the workspace itself. */
      rel: string;
    }
  | { ok: false; error: string };

/** Longer model-given paths are refused outright (and error messages show only their start). */
export const MAX_PATH_CHARS = 4096;

/** The path as an error message shows it: cut when very long. */
const shown = (given: string) => (given.length <= 200 ? given : `${given.slice(0, 200)}… (${given.length} characters)`);

/** Why a path is refused by its spelling alone, before it is resolved; null when it may be resolved. */
function spellingError(given: string): string | null {
  if (given.includes('\0')) return 'the path contains a NUL character';
  if (given.length > MAX_PATH_CHARS) return `the path is too long (${given.length} characters)`;
  if (/^[A-Za-z]:/.test(given))
    return `${shown(given)} is a Windows drive path; give a path inside the workspace folder`;
  if (/^[\\/]{2}/.test(given)) {
    return `${shown(given)} is a network (UNC) or device path; give a path inside the workspace folder`;
  }
  if (/^~(?:$|[\\/])/.test(given)) {
    return `${shown(given)} starts with ~ (a home folder); give a path relative to the workspace folder`;
  }
  return null;
}

/** Whether `child` is `parent` or lies below it (both absolute and normalized); `..x` is a name, not a way up. */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export const toPosix = (rel: string): string => (rel === '' ? '.' : rel.split(path.sep).join('/'));

const isMissing = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};

/** The workspace folder's real path; throws when the folder does not exist. */
export function workspaceRoot(workspacePath: string): string {
  return fs.realpathSync(workspacePath);
}

/** Real path of `lexical`: its nearest existing ancestor's real path plus the components that do not exist yet. */
function realPathOf(lexical: string): { ok: true; path: string } | { ok: false; reason: string } {
  let existing = lexical;
  const rest: string[] = [];
  for (;;) {
    try {
      return { ok: true, path: path.join(fs.realpathSync(existing), ...rest) };
    } catch (e) {
      if (!isMissing(e)) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ELOOP') return { ok: false, reason: 'is a symbolic link loop' };
        if (code === 'ENAMETOOLONG') return { ok: false, reason: 'is too long for the file system' };
        return { ok: false, reason: `cannot be resolved (${code ?? (e as Error).message})` };
      }
    }
    let entry: fs.Stats | undefined;
    try {
      entry = fs.lstatSync(existing);
    } catch {
      entry = undefined;
    }
    // The name exists but cannot be resolved: a link to nowhere; writing through it would create its target.
    if (entry?.isSymbolicLink())
      return { ok: false, reason: 'goes through a symbolic link whose target does not exist' };
    const parent = path.dirname(existing);
    if (parent === existing) return { ok: false, reason: 'does not exist' };
    rest.unshift(path.basename(existing));
    existing = parent;
  }
}

/** Resolves `given` (relative to the workspace, or absolute inside it) to a real path inside the workspace. */
export function resolveInWorkspace(workspacePath: string, given: string): Resolved {
  const refused = spellingError(given);
  if (refused !== null) return { ok: false, error: refused };
  let root: string;
  try {
    root = workspaceRoot(workspacePath);
  } catch {
    return { ok: false, error: 'the workspace folder does not exist' };
  }
  const spelled = given.trim() === '' ? '.' : given;
  let lexical = path.resolve(root, spelled);
  // An absolute path spelled with the workspace's own (non-real) path, e.g. /tmp/… for /private/tmp/… on macOS.
  const alias = path.resolve(workspacePath);
  if (path.isAbsolute(spelled) && !isWithin(root, lexical) && isWithin(alias, lexical)) {
    lexical = path.join(root, path.relative(alias, lexical));
  }
  if (!isWithin(root, lexical)) return { ok: false, error: `${shown(given)} is outside the workspace folder` };
  // `..\..\x` names a file in the workspace on POSIX, but means the folder above on Windows: refused everywhere.
  if (spelled.includes('\\') && !isWithin(root, path.resolve(root, spelled.replace(/\\/g, '/')))) {
    return { ok: false, error: `${shown(given)} is outside the workspace folder` };
  }
  const real = realPathOf(lexical);
  if (!real.ok) return { ok: false, error: `${shown(given)} ${real.reason}` };
  if (!isWithin(root, real.path)) {
    return { ok: false, error: `${shown(given)} leads outside the workspace folder through a symbolic link` };
  }
  return { ok: true, path: real.path, root, rel: toPosix(path.relative(root, real.path)) };
}

/** `.maestro/` holds the workspace's tool policy and pieces: a person changes them, the agent's write tools do not. */
export function isProtected(rel: string): boolean {
  const lower = rel.toLowerCase();
  return lower === '.maestro' || lower.startsWith('.maestro/');
}
