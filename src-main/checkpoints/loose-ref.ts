// Checkpoint refs written by the host itself as loose ref files, the way git's files backend writes one (a lock file
// renamed into place): a job's refs are written as it ends, and a git process there was the end's longest wait.
// Anything else (a reftable repository, a shared one, a lock already held) is left to `git update-ref`.
import fs from 'node:fs';
import path from 'node:path';

/** Only the names checkpoints use: `refs/maestro/` then plain path segments. */
const MAESTRO_REF = /^refs\/maestro(\/[A-Za-z0-9_-]+)+$/;

/** Whether refs of `commonDir` can be written as loose files here (files backend, not shared). */
export function writesLooseRefs(commonDir: string, core: ReadonlyMap<string, string>): boolean {
  // A reftable repository keeps no loose refs; a shared one wants group permissions git sets itself.
  if (core.has('sharedrepository')) return false;
  return !fs.existsSync(path.join(commonDir, 'reftable')) && fs.existsSync(path.join(commonDir, 'refs'));
}

/**
 * Writes `ref` → `commit` under `commonDir`; false (nothing written) when the ref is not a checkpoint's, its lock is
 * held or a folder is in the way — git then decides and says what is wrong. Off the event loop: a new task's folder
 * of refs, its lock and the rename are three trips to the disk, and every job ends with one.
 */
export async function writeLooseRef(commonDir: string, ref: string, commit: string): Promise<boolean> {
  if (!MAESTRO_REF.test(ref) || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit)) return false;
  const file = path.join(commonDir, ...ref.split('/'));
  const lock = `${file}.lock`;
  try {
    await fs.promises.mkdir(path.dirname(file), { recursive: true });
    await fs.promises.writeFile(lock, `${commit}\n`, { flag: 'wx' });
  } catch {
    return false;
  }
  try {
    await fs.promises.rename(lock, file);
    return true;
  } catch {
    await fs.promises.rm(lock, { force: true });
    return false;
  }
}
