// The task list's actions and UI state: loading it (into the entities, with the latest job of each task that waits
// for the person: its wait reason and error feed the notification center), creating, renaming, archiving and deleting;
// and a nudge for the empty view's new-task composer ("New task" with no task open focuses it instead of a dialog).
import type { StateCreator } from 'zustand';
import type { JobStatus, Task } from '../../../src-shared/entities';
import { type ApiError, type MaestroApi, type OpInput, toApiError } from '../api/client';
import { selectLatestJobs } from './entity-selectors';
import type { AppState, LoadState } from './types';

export type CreateOutcome = { ok: true; task: Task } | { ok: false; error: ApiError };
/** What a rename, archive or delete came to: null when done, else why not. */
export type ManageFailure = ApiError | null;

export interface TasksSlice {
  tasksLoad: LoadState;
  tasksError: string | null;
  /** Whether the empty view's composer is on screen ("New task" then focuses it instead of opening a dialog). */
  pageComposer: boolean;
  setPageComposer(shown: boolean): void;
  /** Whether the "New task" dialog's composer is open (the empty view's then waits: one composer at a time). */
  dialogComposer: boolean;
  setDialogComposer(open: boolean): void;
  /** Bumped to ask the empty view's composer to take the focus. */
  composerFocus: number;
  focusComposer(): void;
  loadTasks(): Promise<void>;
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
        set({ tasksLoad: get().entities.tasks.length > 0 ? 'ready' : 'loading' });
        try {
          const { tasks } = await api.listTasks({});
          get().fold({ kind: 'tasks.page', tasks });
          set({ tasksLoad: 'ready', tasksError: null });
          await loadNeedyJobs(tasks);
        } catch (error) {
          set({ tasksLoad: 'error', tasksError: toApiError(error).message });
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
