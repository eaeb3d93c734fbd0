// The task list's actions and UI state: loading it a page at a time (into the entities; the first page again on each
// (re)connect, the next ones as the list scrolls, a search's and the archive's on demand, and the tasks that wait for
// the person, with their latest job: its wait reason and error feed the notification center), creating, renaming,
// archiving and deleting;
// and a nudge for the empty view's new-task composer ("New task" with no task open focuses it instead of a dialog).
import type { StateCreator } from 'zustand';
import type { JobStatus, Task } from '../../../src-shared/entities';
import { type ApiError, type MaestroApi, type OpInput, toApiError } from '../api/client';
import { selectLatestJobs } from './entity-selectors';
import type { AppState, LoadState } from './types';

export type CreateOutcome = { ok: true; task: Task } | { ok: false; error: ApiError };
/** What a rename, archive or delete came to: null when done, else why not. */
export type ManageFailure = ApiError | null;

/** Tasks per page of the list (the bridge's default is larger; a sidebar shows about this many at once). */
export const TASK_LIST_PAGE = 50;

/** Filters of a page that is not the list's next one: a search, or the archive. */
export type TaskPageFilter = { q: string } | { archived: true };

export interface TasksSlice {
  tasksLoad: LoadState;
  tasksError: string | null;
  /** The cursor of the list's next page; null once the last page is loaded. */
  tasksNext: string | null;
  /** Whether the next page is being loaded, or failed to load (the list offers to try again). */
  tasksMore: LoadState;
  /** Whether the empty view's composer is on screen ("New task" then focuses it instead of opening a dialog). */
  pageComposer: boolean;
  setPageComposer(shown: boolean): void;
  /** Whether the "New task" dialog's composer is open (the empty view's then waits: one composer at a time). */
  dialogComposer: boolean;
  setDialogComposer(open: boolean): void;
  /** Bumped to ask the empty view's composer to take the focus. */
  composerFocus: number;
  focusComposer(): void;
  /** The first page (and the first page of the tasks waiting for the person); older pages loaded stay. */
  loadTasks(): Promise<void>;
  /** The list's next page, unless one is loading or the last is loaded. */
  loadMoreTasks(): Promise<void>;
  /** The first page of a search or of the archive, added to the list (the list filters what it shows itself). */
  loadTaskPage(filter: TaskPageFilter): Promise<void>;
  createTask(input: OpInput<'createTask'>): Promise<CreateOutcome>;
  renameTask(taskId: string, title: string): Promise<ManageFailure>;
  archiveTask(taskId: string, archived: boolean): Promise<ManageFailure>;
  deleteTask(taskId: string): Promise<ManageFailure>;
  /** Drops deleted tasks from the list (and from the view when one of them is open). */
  removeTasks(taskIds: readonly string[]): void;
}

export const createTasksSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], TasksSlice> =>
  (set, get) => {
    /**
     * The list carries a task's status but not why it waits or how it failed: the latest job of each task that needs
     * the user and whose job this window has not seen is loaded, so the notification center is right after a reload.
     */
    const loadNeedyJobs = async (tasks: readonly Task[]) => {
      const latestJobs = selectLatestJobs(get());
      const unknown = tasks.filter(
        (t) => NEEDS_USER.includes(t.status ?? 'queued') && latestJobs[t.id]?.status !== t.status,
      );
      await Promise.all(
        unknown.map(async (t) => {
          try {
            // The latest page, not every comment: only the jobs are wanted.
            const latest = (await api.getTaskRecent({ taskId: t.id })).jobs.at(-1);
            if (latest) get().fold({ kind: 'job', job: latest });
          } catch {
            // The entry stays generic ("waits for you") until the job is seen.
          }
        }),
      );
    };
    return {
      tasksLoad: 'idle',
      tasksError: null,
      tasksNext: null,
      tasksMore: 'idle',
      pageComposer: false,
      dialogComposer: false,
      composerFocus: 0,

      setPageComposer(shown) {
        set({ pageComposer: shown });
      },

      setDialogComposer(open) {
        set({ dialogComposer: open });
      },

      focusComposer() {
        set((state) => ({ composerFocus: state.composerFocus + 1 }));
      },

      async loadTasks() {
        const firstTime = get().tasksLoad !== 'ready';
        set({ tasksLoad: get().entities.tasks.length > 0 ? 'ready' : 'loading' });
        try {
          // One page of the list and one of the tasks that wait for the person, however many tasks there are.
          const [page, waiting] = await Promise.all([
            api.listTasks({ limit: TASK_LIST_PAGE }),
            api.listTasks({ limit: TASK_LIST_PAGE, status: [...NEEDS_USER] }),
          ]);
          const last = page.nextCursor === null;
          get().fold({ kind: 'tasks.page', tasks: page.tasks, last }, { kind: 'tasks.more', tasks: waiting.tasks });
          // Pages loaded before stay: the next one is still the one after them (unless there is no more at all).
          set({
            tasksLoad: 'ready',
            tasksError: null,
            ...(firstTime || last ? { tasksNext: page.nextCursor, tasksMore: 'idle' as const } : {}),
          });
          await loadNeedyJobs([...page.tasks, ...waiting.tasks]);
        } catch (error) {
          set({ tasksLoad: 'error', tasksError: toApiError(error).message });
        }
      },

      async loadMoreTasks() {
        const cursor = get().tasksNext;
        if (cursor === null || get().tasksMore === 'loading' || get().tasksLoad !== 'ready') return;
        set({ tasksMore: 'loading' });
        try {
          const page = await api.listTasks({ limit: TASK_LIST_PAGE, cursor });
          // A first page loaded meanwhile may have ended the list; this page still belongs to it.
          get().fold({ kind: 'tasks.more', tasks: page.tasks });
          if (get().tasksNext === cursor) set({ tasksNext: page.nextCursor });
          set({ tasksMore: 'idle' });
          await loadNeedyJobs(page.tasks);
        } catch (error) {
          if (toApiError(error).code !== 'invalid_input') return set({ tasksMore: 'error' });
          // A cursor the host no longer takes (it was upgraded): the list starts again from its first page.
          set({ tasksLoad: 'idle', tasksMore: 'idle' });
          await get().loadTasks();
        }
      },

      async loadTaskPage(filter) {
        if (get().tasksNext === null) return; // every task is loaded: the list filters them itself
        try {
          const input = 'q' in filter ? { q: filter.q } : { archived: true };
          const page = await api.listTasks({ limit: TASK_LIST_PAGE, ...input });
          get().fold({ kind: 'tasks.more', tasks: page.tasks });
          await loadNeedyJobs(page.tasks);
        } catch {
          // The loaded tasks are still searched; the next page of the list may hold the rest.
        }
      },

      async createTask(input) {
        try {
          const { task, job } = await api.createTask(input);
          get().fold({ kind: 'job', job }, { kind: 'task', task: { ...task, status: job.status } });
          void get().selectTask(task.id);
          return { ok: true, task };
        } catch (error) {
          return { ok: false, error: toApiError(error) };
        }
      },

      async renameTask(taskId, title) {
        try {
          get().fold({ kind: 'task', task: (await api.renameTask({ taskId, title })).task });
          return null;
        } catch (error) {
          return toApiError(error);
        }
      },

      async archiveTask(taskId, archived) {
        try {
          const { tasks } = await api.archiveTask({ taskId, archived });
          get().fold(...tasks.map((task) => ({ kind: 'task' as const, task })));
          return null;
        } catch (error) {
          return toApiError(error);
        }
      },

      async deleteTask(taskId) {
        try {
          get().removeTasks((await api.deleteTask({ taskId })).deletedTaskIds);
          return null;
        } catch (error) {
          return toApiError(error);
        }
      },

      removeTasks(taskIds) {
        get().fold({ kind: 'tasks.removed', taskIds });
        const selected = get().selectedTaskId;
        if (selected && taskIds.includes(selected)) void get().selectTask(null);
      },
    };
  };

const NEEDS_USER: readonly JobStatus[] = ['waiting_human', 'failed'];
