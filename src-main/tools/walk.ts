// A walk over the files below a folder of the workspace, in sorted order, that never follows a symbolic link out of
// the workspace and never descends into a linked folder (no loops, no escapes).
//
// The folder reads are synchronous, in slices: after WALK_SLICE_MS of work (the walk's and the consumer's, which runs
// between two yields) the walk gives the event loop a turn. One thread-pool round trip per folder (and per file, in
// grep) cost far more than the read itself; slicing keeps the process responsive all the same.
//
// With `gitignore`, the `.gitignore` files of the workspace (the start folder's ancestors', then every folder's on the
// way down) are read and what they ignore is neither entered nor yielded. A start folder that is itself ignored (or
// lies inside an ignored folder) was named on purpose: it is walked whole, without the rules.
import fs from 'node:fs';
import path from 'node:path';
import { addLevel, type IgnoreLevel, isIgnored } from './gitignore';
import { isWithin } from './sandbox';

export const WALK_MAX_ENTRIES = 200_000;
/** The longest stretch of synchronous work (walk + consumer) before the event loop gets a turn. */
export const WALK_SLICE_MS = 10;

export interface WalkOptions {
  /** The workspace's real path: every yielded file's real path lies inside it. */
  root: string;
  /** Folder names not entered (e.g. `.git`, `node_modules`). */
  skip: ReadonlySet<string>;
  /** Leave out what the workspace's `.gitignore` files ignore. */
  gitignore?: boolean;
  signal?: AbortSignal;
}

export interface WalkState {
  visited: number;
  /** The walk stopped at WALK_MAX_ENTRIES. */
  capped: boolean;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const GITIGNORE = '.gitignore';

/** A folder's `.gitignore` added to `level` (unchanged when it has none or it cannot be read). */
function withGitignore(level: IgnoreLevel | null, dir: string, relDir: string): IgnoreLevel | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, GITIGNORE), 'utf8');
  } catch {
    return level;
  }
  return addLevel(level, relDir, text);
}

/**
 * The rules that apply inside `startRel` (a workspace-relative folder, '' for the workspace): those of the
 * `.gitignore` files of the folders above it. `ignored`: the start folder, or a folder above it, is itself ignored.
 */
export function rulesAbove(root: string, startRel: string): { level: IgnoreLevel | null; ignored: boolean } {
  let level: IgnoreLevel | null = null;
  let relDir = '';
  for (const name of startRel === '' ? [] : startRel.split('/')) {
    level = withGitignore(level, path.join(root, relDir), relDir);
    if (isIgnored(level, relDir + name, true)) return { level: null, ignored: true };
    relDir += `${name}/`;
  }
  return { level, ignored: false };
}

/** Yields the workspace-relative (`/`-separated) paths of the files below `start` (an absolute real path). */
export async function* walkFiles(start: string, options: WalkOptions, state: WalkState): AsyncGenerator<string> {
  // Each folder with its workspace-relative path ('' for the workspace itself), so no path.relative per file.
  const startRel = path.relative(options.root, start).split(path.sep).join('/');
  let useRules = options.gitignore === true;
  let startLevel: IgnoreLevel | null = null;
  if (useRules) {
    const above = rulesAbove(options.root, startRel);
    useRules = !above.ignored;
    startLevel = above.level;
  }
  const stack: [string, string, IgnoreLevel | null][] = [[start, startRel === '' ? '' : `${startRel}/`, startLevel]];
  let sliceStart = performance.now();
  const pause = async () => {
    if (performance.now() - sliceStart < WALK_SLICE_MS) return;
    await nextTurn();
    options.signal?.throwIfAborted();
    sliceStart = performance.now();
  };
  while (stack.length > 0) {
    options.signal?.throwIfAborted();
    await pause();
    const [dir, relDir, above] = stack.pop() as [string, string, IgnoreLevel | null];
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skipped
    }
    entries.sort(byName);
    let level = above;
    if (useRules && entries.some((e) => e.name === GITIGNORE && !e.isDirectory())) {
      level = withGitignore(above, dir, relDir);
    }
    const folders: [string, string, IgnoreLevel | null][] = [];
    for (const e of entries) {
      if (++state.visited > WALK_MAX_ENTRIES) {
        state.capped = true;
        return;
      }
      if (e.isDirectory()) {
        if (options.skip.has(e.name)) continue;
        if (level !== null && isIgnored(level, relDir + e.name, true)) continue;
        folders.push([path.join(dir, e.name), `${relDir}${e.name}/`, level]);
      } else if (level !== null && isIgnored(level, relDir + e.name, false)) {
        // ignored by a .gitignore
      } else if (e.isFile()) {
        yield relDir + e.name;
        await pause();
      } else if (e.isSymbolicLink()) {
        let target = false;
        try {
          const real = fs.realpathSync(path.join(dir, e.name));
          target = isWithin(options.root, real) && fs.statSync(real).isFile();
        } catch {
          // a link to nowhere: skipped
        }
        if (target) {
          yield relDir + e.name;
          await pause();
        }
      }
    }
    for (let i = folders.length - 1; i >= 0; i--) stack.push(folders[i] as [string, string, IgnoreLevel | null]);
  }
}
