// The OS sandbox that commands, package installs and stdio MCP servers run in: bubblewrap on Linux, Seatbelt
// (sandbox-exec) on macOS, through @anthropic-ai/sandbox-runtime (the library Claude Code's sandbox is built on: its
// profiles protect `.git/config`, hooks and shell rc files in writable folders, block new Unix sockets with seccomp,
// and filter the network through a proxy per command). Inside: the scope's folders are writable except `.maestro/`;
// the rest of the file system is read-only; the host's data dir and common secret stores are unreadable; the host's
// processes are invisible (own PID namespace); the network reaches only the hosts the scope names; the process dies
// with the host. Where there is no such sandbox (Windows, bubblewrap missing), `openSandbox` says why, and callers ask
// a person before anything runs.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { shellQuote } from './shell-quote';

/** What one sandboxed process may touch beyond reading the file system. */
export interface SandboxScope {
  /** Folders it may write (each one's `.maestro/` stays read-only). */
  writable: readonly string[];
  /** Folders it may read although they lie in a hidden one (a task's packages, in the data dir). */
  readable?: readonly string[];
  /** Hosts it may reach (`registry.npmjs.org`, `*.example.com`, `host:443`); none by default. */
  network?: readonly string[];
}

/** A program to spawn instead of the one asked for, and what to call once it has exited. */
export interface Sandboxed {
  file: string;
  args: string[];
  release(): void;
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
export function hiddenPaths(hostDirs: readonly string[], home = os.homedir()): string[] {
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

/** The machine's OS sandbox, hiding `hidden` (see hiddenPaths) from every process it runs; or why there is none. */
export function openSandbox(hidden: readonly string[]): SandboxChoice {
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
        const hosts = scope.network ?? [];
        // `.maestro/` exists before the wrap, so the library binds it read-only instead of planting an empty file in
        // its place for the command's lifetime — which a host killed meanwhile would leave behind.
        for (const w of scope.writable) fs.mkdirSync(path.join(w, '.maestro'), { recursive: true });
        // A temp folder of its own (the rest of /tmp is read-only inside), removed when it has exited.
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-sandbox-'));
        // Counted from before the wrap: the library's clean-up must not run while this wrap prepares its mounts.
        running++;
        let done = false;
        const release = () => {
          if (done) return;
          done = true;
          if (hosts.length > 0) SandboxManager.unregisterCommandNetworkLists(commandId);
          fs.rmSync(tmp, { recursive: true, force: true });
          released();
        };
        try {
          const { argv } = await SandboxManager.wrapWithSandboxArgv(
            `TMPDIR=${shellQuote(tmp)}; export TMPDIR; ${command}`,
            '/bin/sh',
            {
              filesystem: {
                denyRead: [...hidden],
                allowRead: [...(scope.readable ?? []), ...scope.writable, tmp],
                allowWrite: [...scope.writable, tmp],
                denyWrite: scope.writable.map((w) => path.join(w, '.maestro')),
              },
            },
            undefined,
            cwd,
            { commandId },
          );
          const [file, ...args] = argv;
          if (file === undefined) throw new Error('the sandbox gave no program to run');
          if (hosts.length > 0) SandboxManager.registerCommandNetworkLists(commandId, { allowedDomains: [...hosts] });
          return { file, args, release };
        } catch (error) {
          release();
          throw error;
        }
      },
    },
  };
}
