// Every git the host runs itself (checkpoints, reading the person's git identity): git runs what a repository's
// config and hooks say (core.fsmonitor at `git status`, hooks at commit), and the agent may have had a hand in a
// repository. So the host's git runs with fsmonitor off, hooks from an empty read-only folder, no pager, editor,
// credential helper or prompt, no system config and no network protocol; it never reads the terminal.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let emptyHooks: string | null = null;
/** An empty folder no one writes (read-only, in the host's own temp folder): the hooks folder of every host git. */
function emptyHooksDir(): string {
  if (emptyHooks !== null && fs.existsSync(emptyHooks)) return emptyHooks;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-no-hooks-'));
  fs.chmodSync(dir, 0o500);
  emptyHooks = dir;
  return dir;
}

/** The `-c` settings that come before every host git command (they win over every config file). */
export function hostGitConfig(): string[] {
  return [
    ['core.fsmonitor', 'false'],
    ['core.hooksPath', emptyHooksDir()],
    ['core.pager', 'cat'],
    ['core.editor', 'false'],
    ['core.sshCommand', 'false'],
    ['core.askPass', ''],
    ['credential.helper', ''],
    ['protocol.allow', 'never'],
  ].flatMap(([key, value]) => ['-c', `${key}=${value}`]);
}

/** The environment of a host git: no system config, no prompt, no pager, nothing of the host's own secrets. */
export function hostGitEnv(home = os.homedir()): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '',
    SSH_ASKPASS: '',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'false',
    GIT_OPTIONAL_LOCKS: '0',
  };
}

export interface HostGitResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface HostGitOptions {
  cwd: string;
  home?: string;
  /** Added to the host's git environment (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, an identity, …). */
  env?: NodeJS.ProcessEnv;
  /** Written to git's stdin (then closed). */
  input?: string | Buffer;
  /** `-c` settings after the host's (they cannot undo them: the host's come last). */
  config?: readonly string[];
}

function execHostGit<T extends string | Buffer>(
  args: readonly string[],
  options: HostGitOptions,
  encoding: 'utf8' | 'buffer',
): Promise<{ code: number; stdout: T; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['--no-pager', ...(options.config ?? []), ...hostGitConfig(), ...args],
      {
        cwd: options.cwd,
        env: { ...hostGitEnv(options.home), ...options.env },
        maxBuffer: 1024 * 1024 * 1024,
        encoding,
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? Number(error.code) : 0, stdout: stdout as T, stderr: String(stderr) });
      },
    );
    // git may exit before reading all of its input (a bad option): that is its exit code's story, not a crash.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input ?? '');
  });
}

/** `git <args>` in `cwd` as the host runs it (see the file's comment); never throws for a non-zero exit. */
export function runHostGit(args: readonly string[], options: HostGitOptions): Promise<HostGitResult> {
  return execHostGit<string>(args, options, 'utf8');
}

/** runHostGit with stdout as bytes (blobs read with `cat-file --batch`). */
export function runHostGitBytes(
  args: readonly string[],
  options: HostGitOptions,
): Promise<{ code: number; stdout: Buffer; stderr: string }> {
  return execHostGit<Buffer>(args, options, 'buffer');
}
