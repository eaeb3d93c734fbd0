// An async walk over the files below a folder of the workspace, in sorted order, that never follows a symbolic link
// out of the workspace and never descends into a linked folder (no loops, no escapes).
import fs from 'node:fs/promises';
import path from 'node:path';
import { isWithin, toPosix } from './sandbox';

export const WALK_MAX_ENTRIES = 200_000;

export interface WalkOptions {
  /** The workspace's real path: every yielded file's real path lies inside it. */
  root: string;
  /** Folder names not entered (e.g. `.git`, `node_modules`). */
  skip: ReadonlySet<string>;
  signal?: AbortSignal;
}

export interface WalkState {
  visited: number;
  /** The walk stopped at WALK_MAX_ENTRIES. */
  capped: boolean;
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Yields the workspace-relative (`/`-separated) paths of the files below `start` (an absolute real path). */
export async function* walkFiles(start: string, options: WalkOptions, state: WalkState): AsyncGenerator<string> {
  const stack: string[] = [start];
  while (stack.length > 0) {
    options.signal?.throwIfAborted();
    const dir = stack.pop() as string;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skipped
    }
    entries.sort(byName);
    const folders: string[] = [];
    for (const e of entries) {
      if (++state.visited > WALK_MAX_ENTRIES) {
        state.capped = true;
        return;
      }
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (!options.skip.has(e.name)) folders.push(full);
      } else if (e.isFile()) {
        yield toPosix(path.relative(options.root, full));
      } else if (e.isSymbolicLink()) {
        try {
          const real = await fs.realpath(full);
          if (isWithin(options.root, real) && (await fs.stat(real)).isFile()) {
            yield toPosix(path.relative(options.root, full));
          }
        } catch {
          // a link to nowhere: skipped
        }
      }
    }
    for (let i = folders.length - 1; i >= 0; i--) stack.push(folders[i] as string);
  }
}
