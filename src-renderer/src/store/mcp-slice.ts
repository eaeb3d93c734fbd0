// The MCP servers of the selected task's workspace (which need a token, never a token itself), saving a token from
// the McpAuthCard, and signing in to an HTTP server (the McpAuthCard and Settings). A saved token or a finished
// sign-in queues the parked jobs in main; their job.changed events update the task.
import type { StateCreator } from 'zustand';
import type { McpServerView } from '../../../src-shared/contract';
import { type MaestroApi, type OpInput, toApiError } from '../api/client';
import { openOutside } from '../link-guard';
import type { ActionOutcome } from './detail-slice';
import type { AppState, LoadState } from './types';

export interface WorkspaceMcpServers {
  workspacePath: string;
  servers: McpServerView[];
  /** A broken mcp.json, in main's words (file and field). */
  error: string | null;
}

export interface McpSlice {
  mcpServers: WorkspaceMcpServers | null;
  mcpServersLoad: LoadState;
  mcpServersError: string | null;
  loadMcpServers(workspacePath: string): Promise<void>;
  saveMcpToken(input: OpInput<'saveMcpToken'>): Promise<ActionOutcome>;
  /**
   * Starts a sign-in, opens its address in the person's browser (the system browser in the desktop app) and follows
   * the server's row until the browser came back (or the sign-in ended): null when it ended, else why not.
   */
  signInToMcp(workspacePath: string, server: string): Promise<string | null>;
  /** Finishes a sign-in with the address the browser ended on (the host runs on another computer). */
  finishMcpSignIn(input: OpInput<'completeMcpSignIn'>): Promise<string | null>;
}

/** How often a sign-in in progress is looked at, and for how long at most (main gives up after 10 minutes). */
export const SIGN_IN_POLL_MS = 1000;
const SIGN_IN_FOLLOW_MS = 10 * 60_000;

/** The servers a person must give a token before the workspace's jobs can start (or go on); one that is off never. */
export function serversWaitingForToken(servers: readonly McpServerView[]): McpServerView[] {
  return servers.filter((s) => s.enabled && s.takesToken && ['missing', 'rejected', 'unreadable'].includes(s.token));
}

export const createMcpSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], McpSlice> =>
  (set, get) => {
    /** Puts main's view of a server into each list that shows its workspace (the task's and Settings'). */
    function put(workspacePath: string, view: McpServerView) {
      const swap = (list: WorkspaceMcpServers | null) =>
        list?.workspacePath === workspacePath
          ? { ...list, servers: list.servers.map((s) => (s.name === view.name ? view : s)) }
          : list;
      set({ mcpServers: swap(get().mcpServers), mcpSettings: swap(get().mcpSettings) });
    }

    return {
      mcpServers: null,
      mcpServersLoad: 'idle',
      mcpServersError: null,

      async loadMcpServers(workspacePath) {
        set({ mcpServersLoad: 'loading' });
        try {
          const { servers, error } = await api.listMcpServers({ workspacePath });
          set({ mcpServers: { workspacePath, servers, error }, mcpServersLoad: 'ready', mcpServersError: null });
        } catch (error) {
          set({ mcpServersLoad: 'error', mcpServersError: toApiError(error).message });
        }
      },

      async saveMcpToken(input) {
        try {
          await api.saveMcpToken(input);
        } catch (error) {
          return { ok: false, error: toApiError(error) };
        }
        await get().loadMcpServers(input.workspacePath);
        return { ok: true };
      },

      async signInToMcp(workspacePath, server) {
        let view: McpServerView;
        try {
          const started = await api.startMcpSignIn({ workspacePath, server });
          view = started.server;
          if (started.authorizationUrl) openOutside(started.authorizationUrl);
        } catch (error) {
          return toApiError(error).message;
        }
        put(workspacePath, view);
        const end = Date.now() + SIGN_IN_FOLLOW_MS;
        while (view.signingIn && Date.now() < end) {
          await new Promise((resolve) => setTimeout(resolve, SIGN_IN_POLL_MS));
          try {
            const found = (await api.listMcpServers({ workspacePath })).servers.find((s) => s.name === server);
            if (!found) return null;
            view = found;
          } catch {
            continue;
          }
          put(workspacePath, view);
        }
        return null;
      },

      async finishMcpSignIn(input) {
        try {
          put(input.workspacePath, (await api.completeMcpSignIn(input)).server);
          return null;
        } catch (error) {
          return toApiError(error).message;
        }
      },
    };
  };
