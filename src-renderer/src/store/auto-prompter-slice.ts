// The default workspace's Auto Prompter rules, for Settings: loaded, and replaced by a save whose answer (the file as
// it now is) replaces them. A broken file comes back as `error` in the view, not as a failure.
import type { StateCreator } from 'zustand';
import type { AutoPrompterView } from '../../../src-shared/auto-prompter';
import { type ApiError, type MaestroApi, type OpInput, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

export interface AutoPrompterSlice {
  autoPrompter: AutoPrompterView | null;
  autoPrompterLoad: LoadState;
  autoPrompterError: string | null;
  loadAutoPrompter(): Promise<void>;
  /** null when saved; otherwise why not (the message names the field). */
  saveAutoPrompter(input: OpInput<'saveAutoPrompter'>): Promise<ApiError | null>;
}

export const createAutoPrompterSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], AutoPrompterSlice> =>
  (set) => ({
    autoPrompter: null,
    autoPrompterLoad: 'idle',
    autoPrompterError: null,

    async loadAutoPrompter() {
      set({ autoPrompterLoad: 'loading' });
      try {
        const view = await api.getAutoPrompter({});
        set({ autoPrompter: view, autoPrompterLoad: 'ready', autoPrompterError: null });
      } catch (error) {
        set({ autoPrompterLoad: 'error', autoPrompterError: toApiError(error).message });
      }
    },

    async saveAutoPrompter(input) {
      try {
        const view = await api.saveAutoPrompter(input);
        set({ autoPrompter: view, autoPrompterLoad: 'ready', autoPrompterError: null });
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },
  });
