// How a snapshot store runs git: against its repository (the workspace's own or a private bare one), with the
// task's own index file, as the host runs git (host-git.ts), with the person's filter drivers emptied so that no
// command of theirs runs, and with a fixed MAESTRO identity, no signing, reflog or automatic gc.
import fs from 'node:fs';
import path from 'node:path';
import { type HostGitOptions, type HostGitResult, runHostGit, runHostGitBytes } from '../workspace/host-git';
import { commitBody, type ObjectDb } from './loose-object';
import { writeLooseRef, writesLooseRefs } from './loose-ref';
import { objectWriter } from './object-writer';

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
  /** Where refs go (the main repository's git dir for a linked worktree). */
  commonDir: string;
  /** Where loose objects go, when known already (else asked of git at the first capture). */
  objects?: ObjectDb | null;
}

/** No store git takes this long unless something is wrong (a hung filesystem): it is stopped, the operation fails. */
const GIT_TIMEOUT_MS = 5 * 60_000;

/** The author and committer of every snapshot commit. */
export const SNAPSHOT_IDENT = 'MAESTRO <checkpoints@maestro.invalid>';

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

/** The `core.*` settings of `git config -z --get-regexp` output. */
function coreSettings(configOutput: string): Map<string, string> {
  const core = new Map<string, string>();
  for (const entry of configOutput.split('\0')) {
    const nl = entry.indexOf('\n');
    const key = nl === -1 ? entry : entry.slice(0, nl);
    if (key.startsWith('core.')) core.set(key.slice('core.'.length), nl === -1 ? '' : entry.slice(nl + 1));
  }
  return core;
}

/** The look at the filter and core settings; the core settings come along (the fast capture is made where they let it). */
const CONFIG_LOOK = ['config', '-z', '--get-regexp', '^(filter|core)\\.'];

/** The settings a look found; 1 says there are none, which is the common case. */
function configOf(r: HostGitResult): string {
  if (r.code !== 0 && r.code !== 1) throw new GitFailed(['config'], r.code, r.stderr);
  return r.stdout;
}

/**
 * The look at the config of the repository git finds from `cwd`, as a store's own look makes it (the same `-c`
 * settings): asked while the repository is located, it spares the first capture a process.
 */
export async function lookAtConfig(cwd: string): Promise<string> {
  return configOf(await runHostGit(CONFIG_LOOK, { cwd, config: STORE_CONFIG }));
}

export interface RunExtra {
  input?: string | Buffer;
  env?: NodeJS.ProcessEnv;
  /** Run in the workspace (commands that read the work tree, whose paths are relative to it). */
  inWorkspace?: boolean;
  /** Exit codes besides 0 that are not a failure. */
  okCodes?: readonly number[];
}

/** How long a look at the configured filter drivers holds. */
const GUARD_FRESH_MS = 10_000;

/**
 * The last look at each repository's config (by git dir and work tree), shared by the stores of its tasks: every new
 * task of a folder would otherwise start with a process asking what another task asked a moment ago.
 */
const configLooks = new Map<string, { text: string; at: number }>();
/** Where each repository's loose objects go (by git dir), once git said: the same for every task of the folder. */
const objectDbs = new Map<string, ObjectDb>();

/** The task's index file as this store left it: any other change (another writer, a deletion) shows here. */
type IndexStamp = { ino: number; size: number; mtimeNs: bigint };

export class StoreGit {
  /** The filter drivers found configured at the last look, emptied for every command (any that reads the index). */
  private guard: string[] = [];
  /** The `core.*` settings found at the last look (lower-case names without `core.`; the last value of each). */
  private core = new Map<string, string>();
  /** The filter and core settings as git printed them at the last look (to tell a change). */
  private configSeen = '';
  private guardAt: number | null = null;
  /** The tree the task's index held after this store's last write-tree, while the index is as that left it. */
  private last: { tree: string; stamp: IndexStamp } | null = null;
  /** The trees of the snapshot commits this store wrote. */
  private readonly trees = new Map<string, string>();
  private objects: Promise<ObjectDb | null> | null = null;

  constructor(readonly repo: StoreRepo) {
    if (repo.objects) this.objects = Promise.resolve(repo.objects);
  }

  get coreConfig(): ReadonlyMap<string, string> {
    return this.core;
  }

  get configText(): string {
    return this.configSeen;
  }

  /** Whether a filter driver was configured at the last look (without one, a `filter` attribute does nothing). */
  get hasFilterDrivers(): boolean {
    return this.guard.length > 0;
  }

  private options(extra: RunExtra): HostGitOptions {
    return {
      // Commands that read the work tree run in the workspace (their paths are then workspace-relative); those that
      // read snapshot trees run at the top, where git adds no folder prefix to their pathspecs.
      cwd: extra.inWorkspace ? this.repo.workspace : this.repo.workTree,
      input: extra.input,
      timeoutMs: GIT_TIMEOUT_MS,
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

  /** The tree the task's index holds, when this store wrote it last and nothing changed the index since. */
  indexTree(): string | null {
    const now = this.stampIndex();
    const last = this.last;
    if (!last || !now) return null;
    const same = now.ino === last.stamp.ino && now.size === last.stamp.size && now.mtimeNs === last.stamp.mtimeNs;
    return same ? last.tree : null;
  }

  /** Notes the tree just written from the task's index (or found unchanged in it). */
  wroteTree(tree: string): void {
    const stamp = this.stampIndex();
    this.last = stamp ? { tree, stamp } : null;
  }

  private stampIndex(): IndexStamp | null {
    try {
      const st = fs.statSync(this.repo.indexFile, { bigint: true });
      return { ino: Number(st.ino), size: Number(st.size), mtimeNs: st.mtimeNs };
    } catch {
      return null;
    }
  }

  /** The tree of a snapshot commit this store wrote (null for any other). */
  treeOf(commit: string): string | null {
    return this.trees.get(commit) ?? null;
  }

  /**
   * A snapshot commit of `tree` (parent `parent`) with `message`: written here as a loose object when the repository
   * keeps them where git says, else by `git commit-tree`.
   */
  async commit(tree: string, parent: string | null, message: string): Promise<string> {
    const db = await this.objectDb();
    const seconds = Math.floor(Date.now() / 1000);
    const body = commitBody({ tree, parent, ident: SNAPSHOT_IDENT, seconds, message });
    const commit = db
      ? ((await objectWriter().run({ op: 'objects', db, objects: [{ type: 'commit', body }] }))[0] as string)
      : (
          await this.run(['commit-tree', '--no-gpg-sign', ...(parent ? ['-p', parent] : []), '-F', '-', tree], {
            input: message,
          })
        ).trim();
    this.trees.set(commit, tree);
    return commit;
  }

  /** Points each ref at its commit: as loose ref files where they can be written here, else by `git update-ref`. */
  async keepRefs(refs: readonly { ref: string; commit: string }[]): Promise<void> {
    const local = writesLooseRefs(this.repo.commonDir, this.core);
    const written = await Promise.all(refs.map((r) => local && writeLooseRef(this.repo.commonDir, r.ref, r.commit)));
    const left = refs.filter((_, i) => !written[i]);
    if (left.length === 0) return;
    await this.run(['update-ref', '--stdin'], { input: left.map((r) => `update ${r.ref} ${r.commit}\n`).join('') });
  }

  /**
   * Where the repository's loose objects go and its hash, looked up once (the first capture starts it, beside its own
   * git); null when git will not say (commit-tree then).
   */
  objectDb(): Promise<ObjectDb | null> {
    const known = objectDbs.get(this.repo.gitDir);
    this.objects ??= known && fs.existsSync(known.dir) ? Promise.resolve(known) : this.findObjects().catch(() => null);
    return this.objects;
  }

  private async findObjects(): Promise<ObjectDb | null> {
    const r = await runHostGit(['rev-parse', '--git-path', 'objects', '--show-object-format'], this.options({}));
    const [dir, format] = r.stdout.split('\n');
    if (r.code !== 0 || !dir || (format !== 'sha1' && format !== 'sha256')) return null;
    const abs = path.resolve(this.repo.workTree, dir);
    if (!fs.existsSync(abs)) return null;
    objectDbs.set(this.repo.gitDir, { dir: abs, format });
    return { dir: abs, format };
  }

  /**
   * Looks again which filter drivers are configured (the agent may have added one) and empties them for the next
   * commands: git runs a clean filter wherever it compares a file with the index (ls-files -m, add, even write-tree).
   */
  async refreshFilterGuard(now = performance.now(), force = false): Promise<void> {
    // The agent cannot write a config git reads (.git/config and the home folder are out of its reach): a look per
    // GUARD_FRESH_MS catches a driver the person configures meanwhile, without a process before every step.
    if (!force && this.guardAt !== null && now - this.guardAt < GUARD_FRESH_MS) return;
    const key = `${this.repo.gitDir}\0${this.repo.workTree}`;
    const shared = configLooks.get(key);
    if (!force && shared && now - shared.at < GUARD_FRESH_MS) return this.sawConfig(shared.text, shared.at);
    const r = await runHostGit(CONFIG_LOOK, this.options({}));
    this.sawConfig(configOf(r), now);
    configLooks.set(key, { text: this.configSeen, at: now });
  }

  /** What a look at the config (configOf) found, now: the guard and the core settings follow it. */
  sawConfig(text: string, now = performance.now()): void {
    this.guard = emptiedFilters(text);
    this.core = coreSettings(text);
    this.configSeen = text;
    this.guardAt = now;
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
