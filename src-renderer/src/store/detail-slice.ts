// The selected task with its jobs and comments, the dispositions of comments sent from here, and the task actions.
// Comments come a page at a time: the latest page on select and refresh, earlier pages as the reader scrolls up.
import type { StateCreator } from 'zustand';
import type { ChatStep, Comment, Job, Task, ToolCallResult } from '../../../src-shared/entities';
import { type ApiError, type MaestroApi, type OpOutput, toApiError } from '../api/client';
import { translate } from '../i18n/translate';
import { type ChatItem, chatItems, isStep } from './chat-items';
import { mergeById, upsertById } from './merge';
import type { AppState, LoadState } from './types';

export type Disposition = OpOutput<'addComment'>['disposition'];

export interface TaskDetail {
  taskId: string;
  /** Null until the first getTaskRecent answer; events that arrive earlier still land in jobs and comments. */
  task: Task | null;
  jobs: Job[];
  /** The comments loaded: the task's latest ones, oldest first, without a gap (with the steps, see chat-items.ts). */
  comments: Comment[];
  /** The steps loaded (the agent's recorded turns with their tool calls), oldest first, in the same range. */
  steps: ChatStep[];
  /** How many of the task's comments and steps are older than the first item loaded. */
  olderCount: number;
  /** The page of earlier comments: being loaded, or failed (then the feed offers to load it again). */
  olderLoad: 'idle' | 'loading' | 'error';
}

export type SendOutcome = { ok: true; disposition: Disposition; comment: Comment } | { ok: false; error: ApiError };
export type ActionOutcome = { ok: true } | { ok: false; error: ApiError };
export type AttachmentRead = { ok: true; file: OpOutput<'getTaskAttachment'> } | { ok: false; error: ApiError };

export interface DetailSlice {
  selectedTaskId: string | null;
  detail: TaskDetail | null;
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
  /** Folds a job, comment, step or a step's answer into the detail when it belongs to the selected task. */
  foldJob(job: Job): void;
  foldComment(comment: Comment): void;
  foldStep(step: ChatStep): void;
  foldStepAnswer(taskId: string, stepSeq: number, callId: string, result: ToolCallResult): void;
}

export const createDetailSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], DetailSlice> =>
  (set, get) => {
    const withDetail = (taskId: string, change: (detail: TaskDetail) => Partial<TaskDetail>) =>
      set((state) =>
        state.detail && state.detail.taskId === taskId ? { detail: { ...state.detail, ...change(state.detail) } } : {},
      );

    const takeJob = (job: Job) => {
      get().noteJob(job);
      get().foldJob(job);
      // A cancelled job's stream stops at once, not only when its event arrives (P7.22).
      get().foldStreamJob(job);
    };

    return {
      selectedTaskId: null,
      detail: null,
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
        if (taskId === get().selectedTaskId && get().detail) return get().refreshDetail();
        set({
          selectedTaskId: taskId,
          detail: taskId
            ? { taskId, task: null, jobs: [], comments: [], steps: [], olderCount: 0, olderLoad: 'idle' }
            : null,
          detailLoad: taskId ? 'loading' : 'idle',
          detailError: null,
        });
        get().resetRequests(taskId);
        remember(taskId);
        if (!taskId) return;
        // The chat first: the host answers one request at a time, and the usage of a long task costs more.
        await get().refreshDetail();
        void get().refreshUsage(taskId);
        void get().refreshCheckpoints(taskId);
      },

      async restoreSelection() {
        const taskId = remembered();
        if (taskId && !get().selectedTaskId && get().tasks.some((t) => t.id === taskId)) await get().selectTask(taskId);
      },

      async refreshDetail() {
        const taskId = get().selectedTaskId;
        if (!taskId) return;
        const requests = get().refreshRequests(taskId);
        try {
          const answer = await api.getTaskRecent({ taskId });
          withDetail(taskId, (current) => {
            const jobs = mergeById(current.jobs, answer.jobs, newerJob);
            return {
              task: { ...answer.task, status: latestStatus(jobs) ?? answer.task.status },
              jobs,
              ...foldLatestPage(current, answer),
            };
          });
          const latest = get().detail?.jobs.at(-1);
          if (latest && latest.taskId === taskId) get().noteJob(latest);
          get().foldStreamComments(taskId, answer.comments);
          if (get().selectedTaskId === taskId) set({ detailLoad: 'ready', detailError: null });
        } catch (error) {
          if (get().selectedTaskId === taskId) set({ detailLoad: 'error', detailError: toApiError(error).message });
        }
        await requests;
      },

      async loadOlderComments() {
        const detail = get().detail;
        const first = detail && firstItem(detail);
        if (!detail || !first || detail.olderCount === 0 || detail.olderLoad === 'loading') return;
        const { taskId } = detail;
        withDetail(taskId, () => ({ olderLoad: 'loading' }));
        try {
          const page = await api.listChatBefore({ taskId, itemId: first.id });
          withDetail(taskId, (current) =>
            // A refresh that replaced the items meanwhile (see foldLatestPage) makes this page a stale one.
            firstItem(current)?.id === first.id
              ? {
                  comments: mergeById(page.comments, current.comments),
                  steps: mergeById(page.steps, current.steps),
                  olderCount: page.olderCount,
                  olderLoad: 'idle',
                }
              : { olderLoad: 'idle' },
          );
        } catch {
          withDetail(taskId, () => ({ olderLoad: 'error' }));
        }
      },

      async sendComment(taskId, body) {
        try {
          const profile = get().followupProfiles[taskId];
          const { comment, disposition, job } = await api.addComment({ taskId, body, ...(profile ? { profile } : {}) });
          set((state) => ({ dispositions: { ...state.dispositions, [comment.id]: disposition } }));
          if (job) takeJob(job);
          get().foldComment(comment);
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

      foldJob(job) {
        withDetail(job.taskId, (current) => {
          // An HTTP answer (the job a comment started) can arrive after the events of that job's run.
          const known = current.jobs.find((j) => j.id === job.id);
          const jobs = upsertById(current.jobs, known ? newerJob(known, job) : job);
          return { jobs, task: current.task && { ...current.task, status: latestStatus(jobs) } };
        });
      },

      foldComment(comment) {
        withDetail(comment.taskId, (current) => ({ comments: upsertById(current.comments, comment) }));
      },

      foldStep(step) {
        withDetail(step.taskId, (current) => {
          // An answer already folded (a page read after it) is kept: the event carries the step without answers.
          const known = current.steps.find((s) => s.id === step.id);
          return { steps: upsertById(current.steps, known ? withAnswers(step, known) : step) };
        });
      },

      foldStepAnswer(taskId, stepSeq, callId, result) {
        withDetail(taskId, (current) => {
          const at = current.steps.findIndex((s) => s.seq === stepSeq);
          const step = current.steps[at];
          if (!step) return {};
          const toolCalls = step.toolCalls.map((c) => (c.id === callId ? { ...c, result } : c));
          return { steps: current.steps.map((s, i) => (i === at ? { ...step, toolCalls } : s)) };
        });
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

/** The first item loaded (the anchor of the page before it). */
function firstItem(detail: Pick<TaskDetail, 'comments' | 'steps'>): ChatItem | undefined {
  const [comment] = detail.comments;
  const [step] = detail.steps;
  if (!comment || !step) return comment ?? step;
  return chatItems([comment], [step])[0];
}

/** `step` with the answers `known` has for calls `step` has none for. */
function withAnswers(step: ChatStep, known: ChatStep): ChatStep {
  return {
    ...step,
    toolCalls: step.toolCalls.map((c) =>
      c.result ? c : { ...c, result: known.toolCalls.find((k) => k.id === c.id)?.result ?? null },
    ),
  };
}

/**
 * The latest page folded into the items loaded (comments and steps). When it overlaps them (or starts at the task's
 * first item), the two are merged and the earlier pages loaded stay. When it does not (the first answer, or one after
 * a disconnection during which more than a page arrived), the items loaded before it are dropped, so the list never
 * has a gap; those pushed after the answer left the server are kept.
 */
export function foldLatestPage(
  current: Pick<TaskDetail, 'comments' | 'steps' | 'olderCount'>,
  page: { comments: readonly Comment[]; steps: readonly ChatStep[]; olderCount: number },
): Pick<TaskDetail, 'comments' | 'steps' | 'olderCount'> {
  const items = chatItems(page.comments, page.steps);
  const first = items[0];
  const last = items.at(-1);
  const merged = () => ({
    comments: mergeById(current.comments, page.comments),
    steps: mergeById(current.steps, page.steps, keepAnswers),
  });
  if (!first || !last) return { comments: current.comments, steps: current.steps, olderCount: 0 };
  if (page.olderCount === 0) return { ...merged(), olderCount: 0 };
  const known = isStep(first) ? current.steps : current.comments;
  if (known.some((i) => i.id === first.id)) return { ...merged(), olderCount: current.olderCount };
  const pushed = <T extends ChatItem>(list: readonly T[]) => list.filter((i) => i.createdAt >= last.createdAt);
  return {
    comments: mergeById(page.comments, pushed(current.comments)),
    steps: mergeById(page.steps, pushed(current.steps), keepAnswers),
    olderCount: page.olderCount,
  };
}

/** A step read again keeps the answers already folded into it from events (a page is a moment earlier). */
function keepAnswers(known: ChatStep, fresh: ChatStep): ChatStep {
  return withAnswers(fresh, known);
}

/** An answer that left the server before a pushed change must not undo it: the later updatedAt wins. */
function newerJob(known: Job, fresh: Job): Job {
  return fresh.updatedAt < known.updatedAt ? known : fresh;
}

function latestStatus(jobs: Job[]): Task['status'] {
  return jobs.at(-1)?.status ?? null;
}
