// The OS sandbox that commands, package installs and stdio MCP servers run in: bubblewrap on Linux, Seatbelt
// (sandbox-exec) on macOS, through @anthropic-ai/sandbox-runtime (the library Claude Code's sandbox is built on: it
// blocks new Unix sockets with seccomp and filters the network through a proxy per command). Inside: the scope's
// folders are writable except `.maestro/` and the files that run code outside the sandbox (runs-outside.ts), in each
// of those folders — the library protects those only in the host's own working directory; the system folders, the
// toolchain folders of the home folder and the scope's folders are readable, the rest of the home folder, /tmp, the
// host's data dir and the secret stores are hidden (sandbox-reads.ts); the host's processes are invisible (own PID
// namespace); the network reaches only the hosts the scope names; the process dies with the host, and so do the
// library's network bridges (sandbox-bridge-socat.ts). Where there is no such sandbox (Windows, bubblewrap missing),
// `openSandbox` says why, and callers ask a person before anything runs.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { protectionsOf, sweepAfter } from './runs-outside-scan';
import { bridgeSocat } from './sandbox-bridge-socat';
import {
  hiddenFolders,
  hiddenNote,
  INSTALL_CACHES,
  INSTALL_REGISTRIES,
  type ReadView,
  sanitizedGitConfig,
  toolchainFolders,
} from './sandbox-reads';
import { shellQuote } from './shell-quote';

/** What one sandboxed process may touch beyond reading the file system. */
export interface SandboxScope {
  /** Folders it may write (each one's `.maestro/` stays read-only). */
  writable: readonly string[];
  /** Folders it may read although they lie in a hidden one (a task's packages, in the data dir). */
  readable?: readonly string[];
  /** Hosts it may reach (`registry.npmjs.org`, `*.example.com`, `host:443`); none by default. */
  network?: readonly string[];
  /**
   * It installs its own package as it starts (`npx -y …`, `uvx …`): the package caches are writable and the
   * registries reachable until `settled()`.
   */
  installs?: boolean;
}

/** A program to spawn instead of the one asked for, and what to call once it has exited. */
export interface Sandboxed {
  file: string;
  args: string[];
  /** Once it has exited: cleans up, and removes what it made where nothing may be made (see runs-outside-scan.ts). */
  release(): string[];
  /** It has started: the install registries of `installs` are no longer reachable. */
  settled(): void;
  /** A line explaining the paths of `output` the sandbox hid, or null. */
  explain(output: string): string | null;
}

export interface OsSandbox {
  readonly kind: 'bubblewrap' | 'seatbelt';
  /** `command` for `/bin/sh -c`, in `cwd`, wrapped to run inside the sandbox with `scope`. */
  wrap(command: string, cwd: string, scope: SandboxScope): Promise<Sandboxed>;
}

export type SandboxChoice = { ok: true; sandbox: OsSandbox } | { ok: false; reason: string };

/** Secret stores below the home folder no command needs to read: keys, tokens, keychains. */
const HOME_SECRETS = [
  '.ssh',
  '.aws',
  '.azure',
  '.config/gcloud',
  '.config/gh',
  '.config/hub',
  '.docker/config.json',
  '.kube',
  '.gnupg',
  '.password-store',
  '.netrc',
  '.git-credentials',
  '.npmrc',
  '.pypirc',
  '.cargo/credentials.toml',
  '.local/share/keyrings',
  'Library/Keychains',
];

/** The folders and files a sandboxed process may not read: the host's own data (keys, DB) and the user's secrets. */
export function hiddenPaths(hostDirs: readonly string[], home: string = os.homedir()): string[] {
  return [...hostDirs.map((d) => path.resolve(d)), ...HOME_SECRETS.map((s) => path.join(home, s))];
}

const platformKind = (): OsSandbox['kind'] | null =>
  process.platform === 'linux' ? 'bubblewrap' : process.platform === 'darwin' ? 'seatbelt' : null;

/** Why this machine has no OS sandbox, or null when it has one. */
export function sandboxUnavailableReason(): string | null {
  const kind = platformKind();
  if (kind === null) return `there is no OS sandbox for commands on ${process.platform}`;
  const check = SandboxManager.checkDependencies();
  if (check.errors.length > 0) {
    const install = kind === 'bubblewrap' ? ' (install bubblewrap, socat and ripgrep)' : '';
    return `the OS sandbox cannot run here: ${check.errors.join('; ')}${install}`;
  }
  return null;
}

// The library keeps one configuration and one network proxy per process: started at the first wrap, kept for the
// life of the process. Each wrap passes its own file system rules.
let started: Promise<void> | null = null;
const start = () => {
  started ??= SandboxManager.initialize({
    ...(process.platform === 'linux' ? { socatPath: bridgeSocat() } : {}),
    network: { allowedDomains: [], deniedDomains: [] },
    filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
  } satisfies SandboxRuntimeConfig).catch((error: unknown) => {
    started = null;
    throw error;
  });
  return started;
};

// Mount points the library makes for protected paths that do not exist yet are removed once no sandboxed process
// runs any more: removing them under a running one would lift its protection.
let running = 0;
const released = () => {
  running--;
  if (running === 0) SandboxManager.cleanupAfterCommand();
};

// The library runs its seccomp helper (vendor/seccomp/<arch>/apply-seccomp) inside the sandbox, from the app's own
// install: an app installed below the home folder or /tmp (a checkout, an AppImage's mount) must still show it.
const SECCOMP_HELPERS = path.join(
  path.dirname(path.dirname(createRequire(__filename).resolve('@anthropic-ai/sandbox-runtime'))),
  'vendor',
  'seccomp',
);

/**
 * The machine's OS sandbox, hiding `hidden` (see hiddenPaths) and the home folder `home` but its toolchain folders
 * from every process it runs; or why there is none.
 */
export function openSandbox(hidden: readonly string[], home: string = os.homedir()): SandboxChoice {
  const reason = sandboxUnavailableReason();
  const kind = platformKind();
  if (reason !== null || kind === null) return { ok: false, reason: reason ?? 'no OS sandbox' };
  return {
    ok: true,
    sandbox: {
      kind,
      async wrap(command, cwd, scope) {
        await start();
        // The proxy tells commands apart by this id, which the sandboxed client presents: it must be unguessable.
        const commandId = randomBytes(16).toString('base64url');
        const hosts = [...(scope.network ?? []), ...(scope.installs ? INSTALL_REGISTRIES : [])];
        // `.maestro/` exists before the wrap, so the library binds it read-only instead of planting an empty file in
        // its place for the command's lifetime — which a host killed meanwhile would leave behind.
        for (const w of scope.writable) fs.mkdirSync(path.join(w, '.maestro'), { recursive: true });
        const protections = scope.writable.map(protectionsOf);
        const caches = scope.installs ? INSTALL_CACHES.map((c) => path.join(home, c)) : [];
        for (const c of caches) fs.mkdirSync(c, { recursive: true });
        // A temp folder of its own (the rest of /tmp is hidden inside), removed when it has exited; it holds the
        // person's git identity without credentials, as git's global config.
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-sandbox-'));
        const gitConfig = path.join(tmp, '.gitconfig');
        fs.writeFileSync(gitConfig, await sanitizedGitConfig(home));
        const view: ReadView = {
          hidden: [...hidden, ...hiddenFolders(home)],
          visible: [
            ...(scope.readable ?? []),
            ...scope.writable,
            tmp,
            ...toolchainFolders(home),
            ...caches,
            SECCOMP_HELPERS,
            ...(process.platform === 'linux' ? [path.dirname(bridgeSocat())] : []),
          ],
        };
        // The library's own sockets to its network proxy live in the host's temp folder, which is hidden.
        const bridges = [SandboxManager.getLinuxHttpSocketPath(), SandboxManager.getLinuxSocksSocketPath()];
        const sockets = bridges.filter((s): s is string => s !== undefined);
        // Counted from before the wrap: the library's clean-up must not run while this wrap prepares its mounts.
        running++;
        let done = false;
        let removed: string[] = [];
        const release = () => {
          if (done) return removed;
          done = true;
          if (hosts.length > 0) SandboxManager.unregisterCommandNetworkLists(commandId);
          fs.rmSync(tmp, { recursive: true, force: true });
          removed = protections.flatMap(sweepAfter);
          released();
          return removed;
        };
        const env = `TMPDIR=${shellQuote(tmp)} GIT_CONFIG_GLOBAL=${shellQuote(gitConfig)}`;
        try {
          const { argv } = await SandboxManager.wrapWithSandboxArgv(
            `export ${env}; ${command}`,
            '/bin/sh',
            {
              filesystem: {
                denyRead: [...view.hidden],
                allowRead: [...view.visible, ...sockets],
                allowWrite: [...scope.writable, tmp, ...caches],
                denyWrite: [
                  ...scope.writable.map((w) => path.join(w, '.maestro')),
                  ...protections.flatMap((p) => p.readOnly),
                ],
              },
            },
            undefined,
            cwd,
            { commandId },
          );
          const [file, ...args] = argv;
          if (file === undefined) throw new Error('the sandbox gave no program to run');
          if (hosts.length > 0) SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: [...hosts] });
          return {
            file,
            args,
            release,
            settled() {
              if (!scope.installs || done) return;
              SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: [...(scope.network ?? [])] });
            },
            explain: (output) => hiddenNote(output, view),
          };
        } catch (error) {
          release();
          throw error;
        }
      },
    },
  };
}
