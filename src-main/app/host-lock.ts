// One host per data dir: `<dataDir>/host.lock` (0600) holds the pid and start time of the headless host or desktop app
// that runs on it. A second host refuses to start and names the holder; a lock whose pid is no longer alive (the
// holder was SIGKILLed, or the machine restarted) is taken over at once. Liveness is asked of the OS (signal 0), not
// read from an mtime kept fresh by a timer: a dead holder is known dead immediately, and a live one whose event loop
// is busy for a while is never mistaken for dead.
import fs from 'node:fs';
import path from 'node:path';
import { CodedError } from '../../src-shared/errors';

export const HOST_LOCK_FILE = 'host.lock';

export interface HostLockInfo {
  pid: number;
  startedAt: string;
}

export class DataDirLockedError extends CodedError {
  readonly code = 'data_dir_locked';
  constructor(
    readonly file: string,
    readonly holder: HostLockInfo,
  ) {
    super(
      `the data dir ${path.dirname(file)} is in use by another MAESTRO (pid ${holder.pid}, started ${holder.startedAt}); ` +
        `stop it first, or remove ${file} if no MAESTRO runs with that pid`,
    );
  }
}

export interface HostLock {
  readonly file: string;
  readonly info: HostLockInfo;
  /** Removes the lock file if it is still ours. */
  release(): void;
}

/** Lock files this process holds: a lock naming our own pid that is not here was left by an earlier process. */
const heldHere = new Set<string>();

export function acquireHostLock(dataDir: string, now: () => Date = () => new Date()): HostLock {
  const file = path.join(dataDir, HOST_LOCK_FILE);
  const info: HostLockInfo = { pid: process.pid, startedAt: now().toISOString() };
  const text = `${JSON.stringify(info)}\n`;
  // A few rounds: each one either creates the file, refuses because its holder lives, or clears a dead holder's.
  for (let round = 0; round < 5; round++) {
    try {
      const fd = fs.openSync(file, 'wx', 0o600);
      try {
        fs.writeSync(fd, text);
      } finally {
        fs.closeSync(fd);
      }
      heldHere.add(file);
      return { file, info, release: () => release(file, text) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new HostLockFileError(file, `cannot be created: ${(error as Error).message}`);
      }
    }
    const found = readLock(file);
    if (found === undefined) continue; // removed in between: try again
    if (found.holder && holderAlive(file, found.holder)) throw new DataDirLockedError(file, found.holder);
    // Dead (or unreadable: a crash between create and write). Removed only if it is still the file we read, so two
    // hosts starting together on a stale lock do not remove each other's fresh one (they re-read and one refuses).
    if (readLock(file)?.text === found.text) fs.rmSync(file, { force: true });
  }
  throw new HostLockFileError(file, 'could not be taken: it kept changing while this host started');
}

class HostLockFileError extends CodedError {
  readonly code = 'data_dir_unusable';
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`the lock file ${file} ${problem}`);
  }
}

function release(file: string, text: string): void {
  heldHere.delete(file);
  try {
    if (fs.readFileSync(file, 'utf8') === text) fs.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

/** The file's text and what it says; undefined when there is no file. */
function readLock(file: string): { text: string; holder: HostLockInfo | null } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HostLockFileError(file, `cannot be read: ${(error as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<HostLockInfo>;
    if (Number.isSafeInteger(parsed.pid) && (parsed.pid as number) > 0 && typeof parsed.startedAt === 'string') {
      return { text, holder: { pid: parsed.pid as number, startedAt: parsed.startedAt } };
    }
  } catch {
    // not JSON: a torn write
  }
  return { text, holder: null };
}

function holderAlive(file: string, holder: HostLockInfo): boolean {
  if (holder.pid === process.pid) return heldHere.has(file);
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process with that pid exists but belongs to someone else: counted as alive, on the safe side.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
