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
 * held or a folder is in the way — git then decides and says what is wrong.
 */
export function writeLooseRef(commonDir: string, ref: string, commit: string): boolean {
  if (!MAESTRO_REF.test(ref) || !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(commit)) return false;
  const file = path.join(commonDir, ...ref.split('/'));
  const lock = `${file}.lock`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(lock, `${commit}\n`, { flag: 'wx' });
  } catch {
    return false;
  }
  try {
    fs.renameSync(lock, file);
    return true;
  } catch {
    fs.rmSync(lock, { force: true });
    return false;
  }
}
