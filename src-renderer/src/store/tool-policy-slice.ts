// A workspace's Tool Policy for Settings: the spaces to choose from, the chosen workspace's policy (loaded, and
// replaced by a save's answer), and why it could not be loaded. A broken file comes back as `error` in the view. The
// "Ask before editing files" switch is the editing tools in `tools.ask`.
import type { StateCreator } from 'zustand';
import type { SshTargetView } from '../../../src-shared/contract';
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
  /** The chosen workspace's SSH targets (its policy in force) and how each is reached; null until loaded. */
  sshTargets: SshTargetView[] | null;
  sshTargetsError: string | null;
  loadSshTargets(workspacePath: string): Promise<void>;
  /** Chooses the key file a target is reached with (null: the SSH agent); null when done, else why not. */
  saveSshTargetKey(workspacePath: string, target: string, keyFile: string | null): Promise<ApiError | null>;
}

export const createToolPolicySlice =
  (api: MaestroApi): StateCreator<AppState, [], [], ToolPolicySlice> =>
  (set, get) => ({
    policySpaces: [],
    toolPolicyFor: null,
    toolPolicy: null,
    toolPolicyLoad: 'idle',
    toolPolicyError: null,
    sshTargets: null,
    sshTargetsError: null,

    async loadSshTargets(workspacePath) {
      set({ sshTargets: null, sshTargetsError: null });
      try {
        const { targets, error } = await api.listSshTargets({ workspacePath });
        if (get().toolPolicyFor !== workspacePath) return;
        set({ sshTargets: targets, sshTargetsError: error });
      } catch (error) {
        if (get().toolPolicyFor === workspacePath) set({ sshTargetsError: toApiError(error).message });
      }
    },

    async saveSshTargetKey(workspacePath, target, keyFile) {
      try {
        const saved = await api.saveSshTargetKey({ workspacePath, target, keyFile });
        const now = get().sshTargets;
        if (get().toolPolicyFor === workspacePath && now) {
          set({ sshTargets: now.map((t) => (t.name === saved.target.name ? saved.target : t)) });
        }
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },

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
