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
  /** Added to the host's environment, e.g. GIT_INDEX_FILE for a private index (never the person's own variables). */
  env?: Readonly<Record<string, string>>;
  /** Written to git's stdin (e.g. `update-index --index-info`); stdin is closed either way, so git never waits on it. */
  input?: string;
}

/** `git <args>` in `cwd` as the host runs it (see the file's comment); never throws for a non-zero exit. */
export function runHostGit(args: readonly string[], options: HostGitOptions): Promise<HostGitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      ['--no-pager', ...hostGitConfig(), ...args],
      {
        cwd: options.cwd,
        env: { ...hostGitEnv(options.home), ...options.env },
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
    // A git that exits before reading everything closes the pipe: its exit code says what happened, not EPIPE.
    child.stdin?.on('error', () => {});
    child.stdin?.end(options.input);
  });
}
