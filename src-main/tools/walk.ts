// A walk over the files below a folder of the workspace, in sorted order, that never follows a symbolic link out of
// the workspace and never descends into a linked folder (no loops, no escapes).
//
// The folder reads are synchronous, in slices: after WALK_SLICE_MS of work (the walk's and the consumer's, which runs
// between two yields) the walk gives the event loop a turn. One thread-pool round trip per folder (and per file, in
// grep) cost far more than the read itself; slicing keeps the process responsive all the same.
import fs from 'node:fs';
import path from 'node:path';
import { isWithin } from './sandbox';

export const WALK_MAX_ENTRIES = 200_000;
/** The longest stretch of synchronous work (walk + consumer) before the event loop gets a turn. */
export const WALK_SLICE_MS = 10;

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
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Yields the workspace-relative (`/`-separated) paths of the files below `start` (an absolute real path). */
export async function* walkFiles(start: string, options: WalkOptions, state: WalkState): AsyncGenerator<string> {
  // Each folder with its workspace-relative path ('' for the workspace itself), so no path.relative per file.
  const startRel = path.relative(options.root, start).split(path.sep).join('/');
  const stack: [string, string][] = [[start, startRel === '' ? '' : `${startRel}/`]];
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
    const [dir, relDir] = stack.pop() as [string, string];
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable folder: skipped
    }
    entries.sort(byName);
    const folders: [string, string][] = [];
    for (const e of entries) {
      if (++state.visited > WALK_MAX_ENTRIES) {
        state.capped = true;
        return;
      }
      if (e.isDirectory()) {
        if (!options.skip.has(e.name)) folders.push([path.join(dir, e.name), `${relDir}${e.name}/`]);
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
    for (let i = folders.length - 1; i >= 0; i--) stack.push(folders[i] as [string, string]);
  }
}
