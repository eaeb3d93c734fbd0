// The MCP servers of the selected task's workspace (which need a token, never a token itself), and saving a token
// from the McpAuthCard. A saved token queues the parked jobs in main; their job.changed events update the task.
import type { StateCreator } from 'zustand';
import type { McpServerView } from '../../../src-shared/contract';
import { type MaestroApi, type OpInput, toApiError } from '../api/client';
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
}

/** The servers a person must give a token before the workspace's jobs can start (or go on); one that is off never. */
export function serversWaitingForToken(servers: readonly McpServerView[]): McpServerView[] {
  return servers.filter((s) => s.enabled && s.takesToken && ['missing', 'rejected', 'unreadable'].includes(s.token));
}

export const createMcpSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], McpSlice> =>
  (set, get) => ({
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
  });
