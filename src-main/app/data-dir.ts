// The data dir before anything opens in it: made (0700) and checked readable and writable, with a clear error when it
// cannot be; and the name of the sealed file of the remote agents' tokens. Apart from the composition root, so the
// desktop's main process can use them without loading the core.
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
