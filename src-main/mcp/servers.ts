// The MCP servers of every workspace, for the app: what each needs (a token given or not, refused or not, never the
// token itself), whether it is on, how it last did (status, tools, last error), saving a token, and opening a job's
// servers after the token check (spec §2 K → KH / L) with its credentials (credentials.ts) and its answers to the
// servers' asks (job-asks.ts).

import { createHash } from 'node:crypto';
import type { McpServerView } from '../../src-shared/contract';
import type { SandboxChoice } from '../tools/os-sandbox';
import type { SettingsText } from '../workspace/accepted-settings';
import { loadMcpConfig, type McpServerConfig, type McpTimeouts, takesToken } from './config';
import { McpAuthError } from './connection-errors';
import { credentialsFor, rememberAuth } from './credentials';
import { type JobAsksOptions, withAsks } from './job-asks';
import { McpSignIns, SignInError, type SignInStart } from './oauth';
import { McpPrompts } from './person-prompts';
import {
  type McpJobHooks,
  type McpJobServers,
  type McpOpenResult,
  McpSession,
  refusalMessage,
  type ServerState,
  type SessionServer,
} from './session';
import type { McpTokenStore } from './token-store';

export type McpTokenStatus = McpServerView['token'];

/** Statuses that keep a job from starting until a token is saved. */
export const needsToken = (status: McpTokenStatus) => status === 'missing' || status === 'unreadable';

export interface McpServersOptions extends JobAsksOptions {
  clientVersion: string;
  /** The app's timeouts (starting, a call, a call in all); a server's own in mcp.json win. */
  timeouts?: Partial<McpTimeouts>;
  /** The OS sandbox stdio servers run in. */
  sandbox?: SandboxChoice;
  /** The text of a workspace's mcp.json in force: the app passes the accepted version's (default: the file). */
  read?: SettingsText;
  /** The servers a person turned on or off in Settings, by name (they win over `"disabled"` in the file). */
  switches?: (workspacePath: string) => Readonly<Record<string, boolean>>;
  /** How long a parked job's servers are kept for its resume, and how many jobs' at most (default 10 min, 8). */
  keep?: () => McpKeepLimits;
  /** How long a server's question waits for the person (default PROMPT_WAIT_MS). */
  promptWaitMs?: () => number;
  /** A person finished signing in to a server: the workspace's jobs parked on it may go on. */
  onSignedIn?: (workspacePath: string, server: string) => void;
}

export interface McpKeepLimits {
  idleMs: number;
  sessions: number;
}

export const DEFAULT_KEEP: McpKeepLimits = { idleMs: 10 * 60_000, sessions: 8 };

/** What a session was opened with: the workspace, its servers' configs and tokens (hashed: nothing kept in clear). */
function fingerprintOf(workspacePath: string, servers: readonly SessionServer[]): string {
  const text = JSON.stringify([workspacePath, servers.map((s) => [s.config, s.token])]);
  return createHash('sha256').update(text).digest('hex');
}

type Status = Pick<McpServerView, 'status' | 'tools' | 'lastError' | 'checkedAt'>;
const UNKNOWN: Status = { status: 'unknown', tools: [], lastError: null, checkedAt: null };

export class McpServers implements McpJobServers {
  /** How each server last did in this process, by workspace and name. */
  private readonly statuses = new Map<string, Status>();
  /** What each open session was opened with, to tell whether a kept one still fits. */
  private readonly fingerprints = new WeakMap<McpSession, string>();
  /** Sessions of parked jobs kept for their task's resume, oldest first. */
  private readonly kept = new Map<string, { session: McpSession; timer: NodeJS.Timeout }>();
  /** What the servers ask the person while their calls run (listMcpPrompts, answerMcpPrompt). */
  readonly prompts: McpPrompts;

  /** People's OAuth sign-ins in progress. */
  readonly signIns: McpSignIns;

  constructor(
    readonly tokens: McpTokenStore,
    private readonly options: McpServersOptions,
  ) {
    this.prompts = new McpPrompts(options.promptWaitMs);
    this.signIns = new McpSignIns({
      tokens,
      onSignedIn: (workspace, server) => {
        this.statuses.delete(statusKey(workspace, server));
        options.onSignedIn?.(workspace, server);
      },
      onFailed: (workspace, server, reason) =>
        this.record(workspace, server, { status: 'failed', error: `the sign-in failed: ${reason}` }),
    });
  }

  /** The workspace's servers and their token status. Throws ConfigFileError on a broken mcp.json. */
  list(workspacePath: string): McpServerView[] {
    return this.configs(workspacePath).map((s) => this.view(workspacePath, s));
  }

  /** The workspace's servers in force, each on or off. Throws ConfigFileError on a broken mcp.json. */
  configs(workspacePath: string): McpServerConfig[] {
    const switches = this.options.switches?.(workspacePath) ?? {};
    return loadMcpConfig(workspacePath, this.options.read).map((s) => ({
      ...s,
      enabled: switches[s.name] ?? s.enabled,
    }));
  }

  view(workspacePath: string, server: McpServerConfig): McpServerView {
    const state = this.tokens.state(workspacePath, server.name);
    // "rejected" is said of a saved token only: a server that asked for one when none was saved is missing it.
    let token: McpTokenStatus = state.rejected || server.authRequired ? 'missing' : 'none';
    if (state.hasToken) {
      try {
        if (state.signedIn) this.tokens.oauthTokens(workspacePath, server.name);
        else this.tokens.open(workspacePath, server.name);
        token = state.rejected ? 'rejected' : 'saved';
      } catch {
        token = 'unreadable';
      }
    }
    return {
      name: server.name,
      transport: server.transport,
      authRequired: server.authRequired,
      takesToken: takesToken(server),
      token,
      signedIn: state.signedIn === true,
      signingIn: this.signIns.waiting(workspacePath, server.name),
      enabled: server.enabled,
      ...(this.statuses.get(statusKey(workspacePath, server.name)) ?? UNKNOWN),
    };
  }

  /** Forgets how a server last did and its token: it was removed from the workspace's file. */
  forget(workspacePath: string, server: string): void {
    this.tokens.forget(workspacePath, server);
    this.statuses.delete(statusKey(workspacePath, server));
  }

  tokenSavedSince(savedCount: number): boolean {
    return this.tokens.savedCount !== savedCount;
  }

  async open(
    workspacePath: string,
    signal: AbortSignal,
    hooks: McpJobHooks = {},
    taskId?: string,
  ): Promise<McpOpenResult> {
    const savedCount = this.tokens.savedCount;
    const servers: SessionServer[] = [];
    for (const config of this.configs(workspacePath).filter((c) => c.enabled)) {
      const server = await credentialsFor(this.tokens, workspacePath, config);
      if (typeof server === 'string')
        return { kind: 'auth_required', server: config.name, message: server, savedCount };
      servers.push(server);
    }
    const fingerprint = fingerprintOf(workspacePath, servers);
    const kept = taskId === undefined ? undefined : this.takeKept(taskId);
    hooks = withAsks(workspacePath, hooks, this.prompts, this.options);
    if (kept && this.fingerprints.get(kept) === fingerprint) {
      kept.adopt(signal, hooks);
      return { kind: 'ready', session: kept };
    }
    // The servers or their tokens changed while the job waited: what was kept goes, the job starts them afresh.
    await kept?.close().catch(() => {});
    try {
      const session = await this.session(workspacePath, servers, signal, hooks);
      this.fingerprints.set(session, fingerprint);
      return { kind: 'ready', session };
    } catch (error) {
      if (!(error instanceof McpAuthError)) throw error;
      return {
        kind: 'auth_required',
        server: error.server,
        message: refusalMessage(
          error,
          servers.find((s) => s.config.name === error.server),
        ),
        savedCount,
      };
    }
  }

  /**
   * Keeps a parked job's session for its task's next job (within the settings' idle time and count: the oldest kept
   * goes first); false when it is not kept (no servers), and the caller closes it.
   */
  keep(taskId: string, session: McpSession): boolean {
    if (session.tools.length === 0 || !this.fingerprints.has(session)) return false;
    const { idleMs, sessions } = this.options.keep?.() ?? DEFAULT_KEEP;
    if (idleMs <= 0 || sessions <= 0) return false;
    void this.takeKept(taskId)?.close();
    while (this.kept.size >= sessions) {
      const oldest = this.kept.keys().next().value as string;
      void this.takeKept(oldest)?.close();
    }
    session.detach();
    const timer = setTimeout(() => void this.takeKept(taskId)?.close(), idleMs);
    timer.unref();
    this.kept.set(taskId, { session, timer });
    return true;
  }

  /** The task's parked job ended without a resume (cancelled, or failed): its kept servers end too. */
  async drop(taskId: string): Promise<void> {
    await this.takeKept(taskId)
      ?.close()
      .catch(() => {});
  }

  private takeKept(taskId: string): McpSession | undefined {
    const kept = this.kept.get(taskId);
    if (!kept) return undefined;
    this.kept.delete(taskId);
    clearTimeout(kept.timer);
    return kept.session;
  }

  /** How many sessions are kept (for tests and the host's close). */
  get keptCount(): number {
    return this.kept.size;
  }

  /** Ends every kept session (the host closes). */
  async closeKept(): Promise<void> {
    await Promise.all(
      [...this.kept.keys()].map((taskId) =>
        this.takeKept(taskId)
          ?.close()
          .catch(() => {}),
      ),
    );
  }

  /** Starts one server of the workspace (on or off), lists its tools and stops it: its view as a job would leave it. */
  async check(workspacePath: string, server: McpServerConfig): Promise<McpServerView> {
    const credentials = await credentialsFor(this.tokens, workspacePath, server);
    if (typeof credentials === 'string') {
      this.record(workspacePath, server.name, { status: 'failed', error: credentials });
      return this.view(workspacePath, server);
    }
    const signal = new AbortController().signal;
    try {
      const session = await this.session(workspacePath, [credentials], signal, {});
      await session.close();
    } catch (error) {
      const message = error instanceof McpAuthError ? refusalMessage(error, credentials) : (error as Error).message;
      this.record(workspacePath, server.name, { status: 'failed', error: message });
    }
    return this.view(workspacePath, server);
  }

  /**
   * Starts a person's OAuth sign-in to an HTTP server of the workspace (oauth.ts): the address their browser opens,
   * or signed in at once (a refresh did it). Throws SignInError naming what failed.
   */
  async signIn(workspacePath: string, server: McpServerConfig): Promise<SignInStart> {
    if (server.transport === 'stdio')
      throw new SignInError(`MCP server "${server.name}" runs on this machine (stdio): it has no sign-in`);
    return this.signIns.start({ workspace: workspacePath, server: server.name, url: server.url });
  }

  private session(workspacePath: string, servers: SessionServer[], signal: AbortSignal, hooks: McpJobHooks) {
    return McpSession.open(servers, {
      signal,
      timeouts: this.options.timeouts,
      clientVersion: this.options.clientVersion,
      sandbox: this.options.sandbox,
      workspacePath,
      onAuth: (server, refusal) => rememberAuth(this.tokens, workspacePath, server, refusal),
      onServer: (server, state) => this.record(workspacePath, server, state),
      onWarning: hooks.onWarning,
      onElicit: hooks.onElicit,
      onSample: hooks.onSample,
    });
  }

  private record(workspacePath: string, server: string, state: ServerState): void {
    const key = statusKey(workspacePath, server);
    const before = this.statuses.get(key) ?? UNKNOWN;
    const checkedAt = new Date().toISOString();
    this.statuses.set(
      key,
      state.status === 'connected'
        ? // A success ends the error it had: the person would otherwise read an old failure as the present one.
          { status: 'connected', tools: state.tools ?? before.tools, lastError: null, checkedAt }
        : { status: 'failed', tools: before.tools, lastError: state.error, checkedAt },
    );
  }
}

const statusKey = (workspacePath: string, server: string) => `${workspacePath}\n${server}`;
