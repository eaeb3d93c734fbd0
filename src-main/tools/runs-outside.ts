// The one list of files that run code on the person's machine, outside the sandbox, without anyone asking: the
// person's git, shell, direnv or editor reads them and runs what they say. The writing tools ask a person before they
// touch one (write-target.ts), and the OS sandbox keeps them read-only in every writable folder (runs-outside-scan.ts).
// It holds what @anthropic-ai/sandbox-runtime protects in its working directory (DANGEROUS_FILES,
// DANGEROUS_DIRECTORIES, `.git/hooks`, `.git/config`) and more.

/** A name below a folder (any folder of the workspace, at any depth) and why it is on the list. */
export interface RunsOutsideEntry {
  /** Lower case, `/`-separated. */
  name: string;
  kind: 'file' | 'folder';
  reason: string;
}

/** Below any folder: a file or folder of this name. */
export const FOLDER_ENTRIES: readonly RunsOutsideEntry[] = [
  {
    name: '.gitmodules',
    kind: 'file',
    reason: "git clones and checks out the submodules it names, with their hooks' URLs",
  },
  { name: '.envrc', kind: 'file', reason: 'direnv runs it as a shell script when a shell enters the folder' },
  {
    name: '.vscode',
    kind: 'folder',
    reason: 'VS Code runs its tasks (runOn: folderOpen), launch and settings (terminal profiles, git path)',
  },
  { name: '.idea', kind: 'folder', reason: 'JetBrains IDEs run its run configurations and startup tasks' },
  { name: '.husky', kind: 'folder', reason: 'husky installs it as the git hooks folder: git runs its scripts' },
  {
    name: '.gitconfig',
    kind: 'file',
    reason: 'git reads it as configuration (fsmonitor, hooksPath, pager, aliases) where it is included',
  },
  {
    name: '.bashrc',
    kind: 'file',
    reason: 'bash runs it at every interactive start (when this folder is a home folder)',
  },
  { name: '.bash_profile', kind: 'file', reason: 'bash runs it at login (when this folder is a home folder)' },
  {
    name: '.zshrc',
    kind: 'file',
    reason: 'zsh runs it at every interactive start (when this folder is a home folder)',
  },
  { name: '.zprofile', kind: 'file', reason: 'zsh runs it at login (when this folder is a home folder)' },
  { name: '.profile', kind: 'file', reason: 'login shells run it (when this folder is a home folder)' },
  { name: '.ripgreprc', kind: 'file', reason: 'ripgrep reads flags from it (--pre runs a program on every file)' },
  { name: '.mcp.json', kind: 'file', reason: 'Claude Code starts the MCP servers it names, as programs' },
  { name: '.claude/commands', kind: 'folder', reason: "Claude Code's commands, which it runs as told" },
  { name: '.claude/agents', kind: 'folder', reason: "Claude Code's agents, which it runs as told" },
];

/** Below a repository's `.git` folder (a nested one too). */
export const GIT_DIR_ENTRIES: readonly RunsOutsideEntry[] = [
  {
    name: 'config',
    kind: 'file',
    reason:
      'git runs core.fsmonitor, core.pager, core.sshCommand, aliases and filters from it at `git status`, which editors run on their own',
  },
  { name: 'config.worktree', kind: 'file', reason: 'git reads it as configuration too (extensions.worktreeConfig)' },
  {
    name: 'commondir',
    kind: 'file',
    reason: 'it tells git where the configuration and hooks are: pointed elsewhere, any config runs',
  },
  { name: 'hooks', kind: 'folder', reason: 'git runs its hooks at commit, checkout, merge and push' },
  {
    name: 'info',
    kind: 'folder',
    reason: "git reads its attributes and excludes, which select the configuration's filters and diff drivers",
  },
  {
    name: 'modules',
    kind: 'folder',
    reason: "the submodules' own repositories: each config and hooks folder runs like the repository's",
  },
  {
    name: 'worktrees',
    kind: 'folder',
    reason: "the linked worktrees' own git folders: their config.worktree and commondir run like the repository's",
  },
];

/** `.git` itself as a file: the pointer of a worktree or submodule to its git folder, which git then trusts. */
export const GIT_POINTER_REASON =
  'a `.git` file tells git where the repository is: pointed at a folder the agent wrote, its config runs';

const segmentsOf = (name: string) => name.split('/');

/** Whether `segments` (lower case) has `name`'s segments starting at `at`. */
const startsAt = (segments: readonly string[], at: number, name: string) =>
  segmentsOf(name).every((s, k) => segments[at + k] === s);

/**
 * Why a workspace-relative path (`/`-separated, symlinks already resolved) runs code outside the sandbox, or null.
 * Matched at any depth and in any case (`.GIT/config` is `.git/config` on a case-insensitive file system).
 */
export function runsOutside(rel: string): string | null {
  const segments = rel.toLowerCase().split('/');
  for (let i = 0; i < segments.length; i++) {
    if (segments[i] === '.git') {
      if (i === segments.length - 1) return GIT_POINTER_REASON;
      const inGit = GIT_DIR_ENTRIES.find((e) => startsAt(segments, i + 1, e.name));
      if (inGit) return inGit.reason;
    }
    for (const entry of FOLDER_ENTRIES) {
      const length = segmentsOf(entry.name).length;
      const last = i + length === segments.length;
      if (startsAt(segments, i, entry.name) && (entry.kind === 'folder' || last)) return entry.reason;
    }
  }
  return null;
}
