// Settings' MCP section: the chosen workspace's servers with their status, tools and last error; turning one off or
// on (a person's choice, kept in main with the accepted settings), checking one now, adding one as a person typed it
// (then checked at once, so its status shows) and removing one. Each answer replaces the server's row (or the list);
// the list is reloaded only when another workspace is chosen.
import type { StateCreator } from 'zustand';
import type { McpServerDraft, McpServerView } from '../../../src-shared/contract';
import { type ApiError, type MaestroApi, toApiError } from '../api/client';
import type { WorkspaceMcpServers } from './mcp-slice';
import type { AppState, LoadState } from './types';

export interface McpSettingsSlice {
  /** The workspace whose servers Settings shows (or loads), or null before one is chosen. */
  mcpSettingsFor: string | null;
  mcpSettings: WorkspaceMcpServers | null;
  mcpSettingsLoad: LoadState;
  mcpSettingsError: string | null;
  /** The servers being checked or switched now, by name. */
  mcpSettingsBusy: string[];
  loadMcpSettings(workspacePath: string): Promise<void>;
  /** null when done; otherwise why not. */
  switchMcpServer(server: string, enabled: boolean): Promise<string | null>;
  checkMcpServer(server: string): Promise<string | null>;
  /** Adds the server to the shown workspace's mcp.json, then checks it; null when added, else why not (by field). */
  addMcpServer(server: McpServerDraft): Promise<ApiError | null>;
  removeMcpServer(server: string): Promise<string | null>;
}

export const createMcpSettingsSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], McpSettingsSlice> =>
  (set, get) => {
    /** Runs a call about one server of the shown workspace and puts its answer in that server's row. */
    async function onServer(server: string, call: (workspacePath: string) => Promise<{ server: McpServerView }>) {
      const workspacePath = get().mcpSettingsFor;
      if (!workspacePath) return 'no workspace is chosen';
      set({ mcpSettingsBusy: [...get().mcpSettingsBusy, server] });
      try {
        const answer = await call(workspacePath);
        const shown = get().mcpSettings;
        if (shown?.workspacePath === workspacePath) {
          const servers = shown.servers.map((s) => (s.name === server ? answer.server : s));
          set({ mcpSettings: { ...shown, servers } });
        }
        return null;
      } catch (error) {
        return toApiError(error).message;
      } finally {
        set({ mcpSettingsBusy: get().mcpSettingsBusy.filter((s) => s !== server) });
      }
    }

    return {
      mcpSettingsFor: null,
      mcpSettings: null,
      mcpSettingsLoad: 'idle',
      mcpSettingsError: null,
      mcpSettingsBusy: [],

      async loadMcpSettings(workspacePath) {
        set({ mcpSettingsFor: workspacePath, mcpSettings: null, mcpSettingsLoad: 'loading', mcpSettingsError: null });
        try {
          const { servers, error } = await api.listMcpServers({ workspacePath });
          // Another workspace was chosen meanwhile: its answer is the one to show.
          if (get().mcpSettingsFor !== workspacePath) return;
          set({ mcpSettings: { workspacePath, servers, error }, mcpSettingsLoad: 'ready' });
        } catch (error) {
          if (get().mcpSettingsFor !== workspacePath) return;
          set({ mcpSettingsLoad: 'error', mcpSettingsError: toApiError(error).message });
        }
      },

      switchMcpServer: (server, enabled) =>
        onServer(server, (workspacePath) => api.setMcpServerEnabled({ workspacePath, server, enabled })),
      checkMcpServer: (server) => onServer(server, (workspacePath) => api.checkMcpServer({ workspacePath, server })),

      async addMcpServer(draft) {
        const workspacePath = get().mcpSettingsFor;
        if (!workspacePath) return toApiError(new Error('no workspace is chosen'));
        try {
          const { server } = await api.addMcpServer({ workspacePath, server: draft });
          const shown = get().mcpSettings;
          if (shown?.workspacePath === workspacePath) {
            const servers = [...shown.servers.filter((s) => s.name !== server.name), server];
            set({ mcpSettings: { ...shown, servers: servers.sort((a, b) => a.name.localeCompare(b.name)) } });
          }
        } catch (error) {
          return toApiError(error);
        }
        // Its status once checked: the row shows "Checking…" meanwhile, and the result or the failure after.
        void get().checkMcpServer(draft.name);
        return null;
      },

      async removeMcpServer(server) {
        const workspacePath = get().mcpSettingsFor;
        if (!workspacePath) return 'no workspace is chosen';
        set({ mcpSettingsBusy: [...get().mcpSettingsBusy, server] });
        try {
          const { servers } = await api.removeMcpServer({ workspacePath, server });
          if (get().mcpSettings?.workspacePath === workspacePath) {
            set({ mcpSettings: { workspacePath, servers, error: null } });
          }
          return null;
        } catch (error) {
          return toApiError(error).message;
        } finally {
          set({ mcpSettingsBusy: get().mcpSettingsBusy.filter((s) => s !== server) });
        }
      },
    };
  };
