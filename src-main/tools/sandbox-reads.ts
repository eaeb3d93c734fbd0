// What a sandboxed process may read (issue 21, point 5): the system folders, its scope's folders, the toolchain
// folders a build needs below the home folder, and a copy of ~/.gitconfig without credentials — not the rest of the
// home folder (history, browser profiles, other projects, mail) nor the rest of /tmp. And the note a result gets
// when its output names a path the sandbox hid, so the model and the person know why it was not there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runHostGit } from '../workspace/host-git';
import { isWithin } from './sandbox';

/** Below the home folder: package caches and language toolchains a build reads (and an installing MCP server writes). */
export const HOME_TOOLCHAINS = [
  '.npm',
  '.nvm',
  '.volta',
  '.bun',
  '.deno',
  '.yarn',
  '.pnpm-store',
  '.local/share/pnpm',
  '.cache/pip',
  '.cache/uv',
  '.local/share/uv',
  '.cache/node-gyp',
  '.cache/ms-playwright',
  '.cache/yarn',
  '.cache/pnpm',
  '.cache/go-build',
  '.cache/pypoetry',
  '.cache/deno',
  '.cache/electron',
  '.cache/puppeteer',
  '.cargo',
  '.rustup',
  '.pyenv',
  '.rbenv',
  '.gem',
  '.asdf',
  '.local/share/mise',
  '.sdkman',
  '.local/bin',
  '.local/lib',
  '.m2',
  '.gradle',
  'go',
];

/** The caches an MCP server launched with `npx -y …` or `uvx …` writes while it installs itself. */
export const INSTALL_CACHES = ['.npm', '.cache/uv', '.local/share/uv', '.cache/pip'];

/** Where those launchers download from. */
export const INSTALL_REGISTRIES = ['registry.npmjs.org', 'pypi.org', 'files.pythonhosted.org'];

/** Whether a stdio server's command installs its package as it starts (its caches and registries are then open). */
export function launchesPackage(command: string): boolean {
  return ['npx', 'uvx', 'pnpx', 'bunx', 'pipx'].includes(path.basename(command).replace(/\.(cmd|exe)$/i, ''));
}

/** The folders hidden from every sandboxed process besides the host's own and the secret stores. */
export function hiddenFolders(home: string): string[] {
  const tmp = [...new Set(['/tmp', '/var/tmp', os.tmpdir()])];
  return [home, ...tmp].map((d) => path.resolve(d));
}

/** The toolchain folders of `home` that exist (a bind needs something to bind). */
export function toolchainFolders(home: string, names: readonly string[] = HOME_TOOLCHAINS): string[] {
  return names.map((n) => path.join(home, n)).filter((p) => fs.existsSync(p));
}

/** Of ~/.gitconfig, what a build may see: who commits and how lines end. Never credentials, URLs or programs. */
const GITCONFIG_KEPT = new Set([
  'user.name',
  'user.email',
  'init.defaultbranch',
  'core.autocrlf',
  'core.eol',
  'core.quotepath',
  'pull.rebase',
  'push.default',
  'merge.conflictstyle',
  'diff.algorithm',
  'color.ui',
]);

const quoted = (value: string) =>
  `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;

/** What the global config files look like now: when that has not changed, neither has the sanitized copy. */
const configStamp = (home: string) =>
  [path.join(home, '.gitconfig'), path.join(home, '.config', 'git', 'config')]
    .map((f) => {
      try {
        const st = fs.statSync(f);
        return `${st.mtimeMs}:${st.size}:${st.ino}`;
      } catch {
        return '-';
      }
    })
    .join('|');

let cached: { home: string; stamp: string; text: string } | null = null;

/**
 * The person's global git config reduced to GITCONFIG_KEPT, as a config file's text ('' when there is none); read
 * again only when a config file changed (a git run costs tens of milliseconds, on every command).
 */
export async function sanitizedGitConfig(home: string): Promise<string> {
  const stamp = configStamp(home);
  if (cached?.home === home && cached.stamp === stamp) return cached.text;
  const text = await readSanitized(home);
  cached = { home, stamp, text };
  return text;
}

async function readSanitized(home: string): Promise<string> {
  let listed: string;
  try {
    const r = await runHostGit(['config', '--global', '--list', '-z'], { cwd: home, home });
    if (r.code !== 0) return '';
    listed = r.stdout;
  } catch {
    return '';
  }
  const sections = new Map<string, string[]>();
  for (const item of listed.split('\0')) {
    const cut = item.indexOf('\n');
    const key = (cut === -1 ? item : item.slice(0, cut)).toLowerCase();
    if (!GITCONFIG_KEPT.has(key)) continue;
    const [section = '', name = ''] = key.split('.');
    const lines = sections.get(section) ?? [];
    lines.push(`\t${name} = ${quoted(cut === -1 ? 'true' : item.slice(cut + 1))}`);
    sections.set(section, lines);
  }
  return [...sections].map(([section, lines]) => `[${section}]\n${lines.join('\n')}\n`).join('');
}

/** What the sandbox hid from one process, to explain its output. */
export interface ReadView {
  hidden: readonly string[];
  visible: readonly string[];
}

const MAX_NOTED = 5;

/**
 * A line for a result whose output names paths the sandbox hid (as `No such file or directory`, or an empty
 * folder), or null. Only absolute paths are recognised: `~/x` is expanded by the shell before a program prints it.
 */
export function hiddenNote(output: string, view: ReadView): string | null {
  const named = new Set<string>();
  for (const match of output.matchAll(/\/[^\s:'"`,;()<>|]+/g)) {
    const p = path.resolve(match[0]);
    const hidden = view.hidden.some((h) => isWithin(h, p));
    if (hidden && !view.visible.some((v) => isWithin(v, p))) named.add(p);
    if (named.size >= MAX_NOTED) break;
  }
  if (named.size === 0) return null;
  return (
    `Note: the OS sandbox hides ${[...named].join(', ')} from commands (only the workspace, the system and toolchain ` +
    'folders are visible): to the command they do not exist, whatever is really there.'
  );
}
