// A workspace's Tool Policy for Settings: the spaces to choose from, the chosen workspace's policy (loaded, and
// replaced by a save's answer), and why it could not be loaded. A broken file comes back as `error` in the view. The
// "Ask before editing files" switch is the editing tools in `tools.ask`.
import type { StateCreator } from 'zustand';
import type { Space } from '../../../src-shared/entities';
import type { ToolPolicyDocument, ToolPolicyView } from '../../../src-shared/tool-policy';
import { type ApiError, type MaestroApi, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

/** The tools "Ask before editing files" puts in the policy's `tools.ask`. */
export const EDIT_TOOLS: readonly string[] = ['edit_file', 'write_file'];

/** Whether a policy's `tools.ask` makes every edit wait for a person. */
export const asksBeforeEdits = (ask: readonly string[]) => EDIT_TOOLS.every((tool) => ask.includes(tool));

/** `tools.ask` with the editing tools in it (on) or out of it (off), the other rules kept in their order. */
export function withAskBeforeEdits(ask: readonly string[], on: boolean): string[] {
  const others = ask.filter((tool) => !EDIT_TOOLS.includes(tool));
  return on ? [...others, ...EDIT_TOOLS] : others;
}

export interface ToolPolicySlice {
  policySpaces: Space[];
  /** The workspace whose policy is shown (or loading), or null before one is chosen. */
  toolPolicyFor: string | null;
  toolPolicy: ToolPolicyView | null;
  toolPolicyLoad: LoadState;
  toolPolicyError: string | null;
  loadPolicySpaces(): Promise<void>;
  loadToolPolicy(workspacePath: string): Promise<void>;
  /** null when saved; otherwise why not (`issues` name the field: policy.run_command.allow.2). */
  saveToolPolicy(workspacePath: string, policy: ToolPolicyDocument): Promise<ApiError | null>;
}

export const createToolPolicySlice =
  (api: MaestroApi): StateCreator<AppState, [], [], ToolPolicySlice> =>
  (set, get) => ({
    policySpaces: [],
    toolPolicyFor: null,
    toolPolicy: null,
    toolPolicyLoad: 'idle',
    toolPolicyError: null,

    async loadPolicySpaces() {
      try {
        const { spaces } = await api.listSpaces({});
        set({ policySpaces: spaces });
      } catch (error) {
        set({ toolPolicyError: toApiError(error).message });
      }
    },

    async loadToolPolicy(workspacePath) {
      set({ toolPolicyFor: workspacePath, toolPolicy: null, toolPolicyLoad: 'loading', toolPolicyError: null });
      try {
        const view = await api.getToolPolicy({ workspacePath });
        // Another workspace was chosen meanwhile: its answer is the one to show.
        if (get().toolPolicyFor !== workspacePath) return;
        set({ toolPolicy: view, toolPolicyLoad: 'ready' });
      } catch (error) {
        if (get().toolPolicyFor !== workspacePath) return;
        set({ toolPolicyLoad: 'error', toolPolicyError: toApiError(error).message });
      }
    },

    async saveToolPolicy(workspacePath, policy) {
      try {
        const view = await api.saveToolPolicy({ workspacePath, policy });
        if (get().toolPolicyFor === workspacePath) set({ toolPolicy: view, toolPolicyLoad: 'ready' });
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },
  });
