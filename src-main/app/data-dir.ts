// The data dir before anything opens in it: made (0700) and checked readable and writable, with a clear error when it
// cannot be; and the name of the sealed file of the remote agents' tokens. Apart from the composition root, so the
// desktop's main process can use them without loading the core.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CodedError } from '../../src-shared/errors';

/** The remote agents' tokens in the data dir (sealed, 0600). */
export const AGENT_TOKENS_FILE = 'agent-tokens.json';

export class DataDirError extends CodedError {
  readonly code = 'data_dir_unusable';
  constructor(dataDir: string, problem: string) {
    super(`the data dir ${dataDir} ${problem}`);
  }
}

export function prepareDataDir(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  if (fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory() === false) {
    throw new DataDirError(resolved, 'is not a folder');
  }
  try {
    fs.mkdirSync(resolved, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new DataDirError(resolved, `cannot be created: ${(error as Error).message}`);
  }
  try {
    fs.accessSync(resolved, fs.constants.W_OK | fs.constants.R_OK);
  } catch {
    throw new DataDirError(resolved, 'is not readable and writable');
  }
  return resolved;
}

/**
 * The data dir's own id (made once, kept in `data-dir-id`): the prefix of the ids of the Workers that run in it. The
 * data dir's lock (host-lock.ts) lets one host at a time in, so on a database several hosts share, a job left running
 * under a worker of this prefix was left by this data dir's host that died — whatever the hosts are called.
 */
export function dataDirId(dataDir: string): string {
  const file = path.join(dataDir, 'data-dir-id');
  try {
    const kept = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{16}$/.test(kept)) return kept;
  } catch {
    // Made below.
  }
  const id = crypto.randomBytes(8).toString('hex');
  fs.writeFileSync(file, `${id}\n`, { mode: 0o600 });
  return id;
}
