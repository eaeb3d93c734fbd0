// How a snapshot store runs git: against its repository (the workspace's own or a private bare one), with the
// task's own index file, as the host runs git (host-git.ts), with the person's filter drivers emptied so that no
// command of theirs runs, and with a fixed MAESTRO identity, no signing, reflog or automatic gc.
import { type HostGitOptions, type HostGitResult, runHostGit, runHostGitBytes } from '../workspace/host-git';

export interface StoreRepo {
  /** The git dir objects and refs go to (GIT_DIR). */
  gitDir: string;
  /** The top of the work tree git sees (GIT_WORK_TREE): the repository's top in `git` mode, the workspace in `plain`. */
  workTree: string;
  /** The workspace (git runs there; snapshot paths are relative to it). */
  workspace: string;
  /** The workspace's path below workTree with a trailing `/`, or '' when it is the top. */
  prefix: string;
  /** The task's index file (GIT_INDEX_FILE). */
  indexFile: string;
}

const IDENTITY = {
  GIT_AUTHOR_NAME: 'MAESTRO',
  GIT_AUTHOR_EMAIL: 'checkpoints@maestro.invalid',
  GIT_COMMITTER_NAME: 'MAESTRO',
  GIT_COMMITTER_EMAIL: 'checkpoints@maestro.invalid',
};

const STORE_CONFIG = [
  ['commit.gpgSign', 'false'],
  ['core.logAllRefUpdates', 'false'],
  ['core.splitIndex', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['core.safecrlf', 'false'],
].flatMap(([key, value]) => ['-c', `${key}=${value}`]);

/** `-c` settings that empty every configured filter driver (`filter.<name>.clean`, `smudge`, `process`). */
export function emptiedFilters(configOutput: string): string[] {
  const names = new Set<string>();
  for (const entry of configOutput.split('\0')) {
    const key = entry.split('\n', 1)[0] ?? '';
    const m = /^filter\.(.+)\.[^.]+$/.exec(key);
    if (m?.[1]) names.add(m[1]);
  }
  return [...names].flatMap((name) =>
    ['clean', 'smudge', 'process', 'required'].flatMap((v) => [
      '-c',
      `filter.${name}.${v}=${v === 'required' ? 'false' : ''}`,
    ]),
  );
}

export interface RunExtra {
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
  /** Run in the workspace (commands that read the work tree, whose paths are relative to it). */
  inWorkspace?: boolean;
  /** Exit codes besides 0 that are not a failure. */
  okCodes?: readonly number[];
}

export class StoreGit {
  /** The filter drivers found configured at the last look, emptied for every command (any that reads the index). */
  private guard: string[] = [];

  constructor(readonly repo: StoreRepo) {}

  private options(extra: RunExtra): HostGitOptions {
    return {
      // Commands that read the work tree run in the workspace (their paths are then workspace-relative); those that
      // read snapshot trees run at the top, where git adds no folder prefix to their pathspecs.
      cwd: extra.inWorkspace ? this.repo.workspace : this.repo.workTree,
      input: extra.input,
      config: [...STORE_CONFIG, ...this.guard],
      env: {
        GIT_DIR: this.repo.gitDir,
        GIT_WORK_TREE: this.repo.workTree,
        GIT_INDEX_FILE: this.repo.indexFile,
        ...IDENTITY,
        ...extra.env,
      },
    };
  }

  /** git, failing with its stderr when it exits non-zero. */
  async run(args: readonly string[], extra: RunExtra = {}): Promise<string> {
    const r: HostGitResult = await runHostGit(args, this.options(extra));
    if (r.code !== 0 && !extra.okCodes?.includes(r.code)) throw new GitFailed(args, r.code, r.stderr);
    return r.stdout;
  }

  /** git with stdout as bytes; failing as run() does. */
  async bytes(args: readonly string[], extra: RunExtra = {}): Promise<Buffer> {
    const r = await runHostGitBytes(args, this.options(extra));
    if (r.code !== 0) throw new GitFailed(args, r.code, r.stderr);
    return r.stdout;
  }

  /**
   * Looks again which filter drivers are configured (the agent may have added one) and empties them for the next
   * commands: git runs a clean filter wherever it compares a file with the index (ls-files -m, add, even write-tree).
   */
  async refreshFilterGuard(): Promise<void> {
    const r = await runHostGit(['config', '-z', '--get-regexp', '^filter\\.'], this.options({}));
    // 1: no such key, which is the common case.
    if (r.code !== 0 && r.code !== 1) throw new GitFailed(['config'], r.code, r.stderr);
    this.guard = emptiedFilters(r.stdout);
  }
}

export class GitFailed extends Error {
  constructor(
    readonly args: readonly string[],
    readonly code: number,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ''} failed (exit ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`);
    this.name = new.target.name;
  }
}
