// The selected task and the actions on it: selecting and refreshing it (its latest page into the entities), loading
// the page of earlier comments as the reader scrolls up, sending comments (with what the write gate did with each),
// stopping and continuing. The task's jobs, comments and steps are entities (selectDetail shows them).
import type { StateCreator } from 'zustand';
import type { Comment, Job } from '../../../src-shared/entities';
import { type ApiError, type MaestroApi, type OpOutput, toApiError } from '../api/client';
import { translate } from '../i18n/translate';
import { firstItem } from './chat-fold';
import type { TaskDetail } from './entity-selectors';
import type { AppState, LoadState } from './types';

export type Disposition = OpOutput<'addComment'>['disposition'];

export type { TaskDetail };

export type SendOutcome = { ok: true; disposition: Disposition; comment: Comment } | { ok: false; error: ApiError };
export type ActionOutcome = { ok: true } | { ok: false; error: ApiError };
export type AttachmentRead = { ok: true; file: OpOutput<'getTaskAttachment'> } | { ok: false; error: ApiError };

export interface DetailSlice {
  selectedTaskId: string | null;
  /** The page of earlier comments of the selected task: being loaded, or failed (the feed offers to load it again). */
  olderLoad: TaskDetail['olderLoad'];
  detailLoad: LoadState;
  detailError: string | null;
  /** What the write gate did with each comment sent from this window, by comment id. */
  dispositions: Record<string, Disposition>;
  selectTask(taskId: string | null): Promise<void>;
  /** After a reload: selects the task this window had selected, when it is still in the list and none is selected. */
  restoreSelection(): Promise<void>;
  refreshDetail(): Promise<void>;
  /** Loads the page of comments before the first one loaded, when there are older ones and none is on its way. */
  loadOlderComments(): Promise<void>;
  /**
   * The LLM profile the person picked in the composer for the task's next job, by task id (absent: the task's own).
   * Sent with every comment of that task; main uses it only when the comment starts a new job.
   */
  followupProfiles: Record<string, string>;
  pickFollowupProfile(taskId: string, profile: string): void;
  sendComment(taskId: string, body: string): Promise<SendOutcome>;
  /** One attached file of the task with its bytes, for a thumbnail; never throws. */
  readAttachment(taskId: string, name: string): Promise<AttachmentRead>;
  cancelTask(taskId: string): Promise<ActionOutcome>;
  continueTask(taskId: string): Promise<ActionOutcome>;
}

export const createDetailSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], DetailSlice> =>
  (set, get) => {
    const takeJob = (job: Job) => get().fold({ kind: 'job', job });

    return {
      selectedTaskId: null,
      olderLoad: 'idle',
      detailLoad: 'idle',
      detailError: null,
      dispositions: {},
      followupProfiles: {},

      pickFollowupProfile(taskId, profile) {
        set((state) => ({ followupProfiles: { ...state.followupProfiles, [taskId]: profile } }));
      },

      async readAttachment(taskId, name) {
        try {
          return { ok: true, file: await api.getTaskAttachment({ taskId, name }) };
        } catch (error) {
          return { ok: false, error: toApiError(error) };
        }
      },

      async selectTask(taskId) {
        if (taskId === get().selectedTaskId && get().entities.chat) return get().refreshDetail();
        set({ selectedTaskId: taskId, olderLoad: 'idle', detailLoad: taskId ? 'loading' : 'idle', detailError: null });
        get().fold({ kind: 'chat.open', taskId });
        remember(taskId);
        if (!taskId) return;
        // The chat first: the host answers one request at a time, and the usage of a long task costs more.
        await get().refreshDetail();
        void get().refreshUsage(taskId);
        void get().refreshCheckpoints(taskId);
      },

      async restoreSelection() {
        const taskId = remembered();
        if (!taskId || get().selectedTaskId) return;
        if (!get().entities.tasks.some((t) => t.id === taskId)) {
          // Older than the pages loaded: asked for on its own; one deleted meanwhile stays unselected.
          if (get().tasksNext === null) return;
          try {
            get().fold({ kind: 'task', task: (await api.getTaskRecent({ taskId })).task });
          } catch {
            return;
          }
          if (get().selectedTaskId) return;
        }
        await get().selectTask(taskId);
      },

      async refreshDetail() {
        const taskId = get().selectedTaskId;
        if (!taskId) return;
        const requests = get().refreshRequests(taskId);
        try {
          get().fold({ kind: 'chat.latest', taskId, page: await api.getTaskRecent({ taskId }) });
          if (get().selectedTaskId === taskId) set({ detailLoad: 'ready', detailError: null });
        } catch (error) {
          if (get().selectedTaskId === taskId) set({ detailLoad: 'error', detailError: toApiError(error).message });
        }
        await requests;
      },

      async loadOlderComments() {
        const { chat } = get().entities;
        const first = chat && firstItem(chat);
        if (!chat || !first || chat.olderCount === 0 || get().olderLoad === 'loading') return;
        const { taskId } = chat;
        const stillOpen = () => get().entities.chat?.taskId === taskId;
        set({ olderLoad: 'loading' });
        try {
          const page = await api.listChatBefore({ taskId, itemId: first.id });
          get().fold({ kind: 'chat.older', taskId, beforeId: first.id, page });
          if (stillOpen()) set({ olderLoad: 'idle' });
        } catch {
          if (stillOpen()) set({ olderLoad: 'error' });
        }
      },

      async sendComment(taskId, body) {
        try {
          const profile = get().followupProfiles[taskId];
          const { comment, disposition, job } = await api.addComment({ taskId, body, ...(profile ? { profile } : {}) });
          set((state) => ({ dispositions: { ...state.dispositions, [comment.id]: disposition } }));
          if (job) takeJob(job);
          get().fold({ kind: 'comment', comment });
          const { locale } = get();
          const news = translate(locale, `toast.commentNews.${disposition}`);
          get().pushToast({ tone: 'ok', text: translate(locale, 'toast.commentSent', { news }), taskId });
          return { ok: true, disposition, comment };
        } catch (error) {
          const apiError = toApiError(error);
          // The gate saw a request this window had not: load it so its card shows (P7.21).
          if (apiError.code === 'approval_pending') await get().refreshDetail();
          return { ok: false, error: apiError };
        }
      },

      async cancelTask(taskId) {
        try {
          takeJob((await api.cancelTask({ taskId })).job);
          return { ok: true };
        } catch (error) {
          return { ok: false, error: toApiError(error) };
        }
      },

      async continueTask(taskId) {
        try {
          takeJob((await api.continueTask({ taskId })).job);
          return { ok: true };
        } catch (error) {
          return { ok: false, error: toApiError(error) };
        }
      },
    };
  };

/** Where this window keeps its selected task across a reload (per window: another window selects its own). */
const SELECTED_KEY = 'maestro.selectedTask';

function remember(taskId: string | null): void {
  try {
    if (taskId) globalThis.sessionStorage?.setItem(SELECTED_KEY, taskId);
    else globalThis.sessionStorage?.removeItem(SELECTED_KEY);
  } catch {
    // Storage refused (a private window, a quota): the selection just does not survive a reload.
  }
}

function remembered(): string | null {
  try {
    return globalThis.sessionStorage?.getItem(SELECTED_KEY) ?? null;
  } catch {
    return null;
  }
}
