// The task list: newest first, kept current by task.created, task.changed, task.deleted and job.changed events, with
// each task's latest job (its wait reason and error feed the notification center); renaming, archiving and deleting;
// and a nudge for the empty view's new-task composer ("New task" with no task open focuses it instead of a dialog).
import type { StateCreator } from 'zustand';
import type { Job, JobStatus, Task } from '../../../src-shared/entities';
import { type ApiError, type MaestroApi, type OpInput, toApiError } from '../api/client';
import { newestFirst } from './merge';
import type { AppState, LoadState } from './types';

export type CreateOutcome = { ok: true; task: Task } | { ok: false; error: ApiError };
/** What a rename, archive or delete came to: null when done, else why not. */
export type ManageFailure = ApiError | null;

export interface TasksSlice {
  tasks: Task[];
  tasksLoad: LoadState;
  tasksError: string | null;
  /** The newest job seen per task: a job.changed event moves the task's status only when it is about this job. */
  latestJobs: Record<string, Job>;
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
  /** Folds a task into the list (new, or a newer copy). */
  upsertTask(task: Task): void;
  /** Folds a job's status into its task when it is that task's latest job. */
  noteJob(job: Job): void;
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
      const unknown = tasks.filter(
        (t) => NEEDS_USER.includes(t.status ?? 'queued') && get().latestJobs[t.id]?.status !== t.status,
      );
      await Promise.all(
        unknown.map(async (t) => {
          try {
            // The latest page, not every comment: only the jobs are wanted.
            const latest = (await api.getTaskRecent({ taskId: t.id })).jobs.at(-1);
            if (latest) get().noteJob(latest);
          } catch {
            // The entry stays generic ("waits for you") until the job is seen.
          }
        }),
      );
    };
    return {
      tasks: [],
      tasksLoad: 'idle',
      tasksError: null,
      latestJobs: {},
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
        set({ tasksLoad: get().tasks.length > 0 ? 'ready' : 'loading' });
        try {
          const { tasks } = await api.listTasks({});
          set({ tasks: [...tasks].sort(newestFirst), tasksLoad: 'ready', tasksError: null });
          await loadNeedyJobs(tasks);
        } catch (error) {
          set({ tasksLoad: 'error', tasksError: toApiError(error).message });
        }
      },

      async createTask(input) {
        try {
          const { task, job } = await api.createTask(input);
          get().noteJob(job);
          get().upsertTask({ ...task, status: job.status });
          void get().selectTask(task.id);
          return { ok: true, task };
        } catch (error) {
          return { ok: false, error: toApiError(error) };
        }
      },

      upsertTask(task) {
        set((state) => {
          const others = state.tasks.filter((t) => t.id !== task.id);
          const open = state.detail?.task?.id === task.id ? state.detail : null;
          return {
            tasks: [task, ...others].sort(newestFirst),
            // The open task's header shows its name as the list does (a rename, the title the host made).
            ...(open?.task ? { detail: { ...open, task: { ...open.task, title: task.title } } } : {}),
          };
        });
      },

      async renameTask(taskId, title) {
        try {
          get().upsertTask((await api.renameTask({ taskId, title })).task);
          return null;
        } catch (error) {
          return toApiError(error);
        }
      },

      async archiveTask(taskId, archived) {
        try {
          for (const task of (await api.archiveTask({ taskId, archived })).tasks) get().upsertTask(task);
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
        const gone = new Set(taskIds);
        set((state) => ({
          tasks: state.tasks.filter((t) => !gone.has(t.id)),
          latestJobs: Object.fromEntries(Object.entries(state.latestJobs).filter(([id]) => !gone.has(id))),
        }));
        const selected = get().selectedTaskId;
        if (selected && gone.has(selected)) void get().selectTask(null);
      },

      noteJob(job) {
        set((state) => {
          const known = state.latestJobs[job.taskId];
          // Jobs of one task are created in order, so a job no older than the latest known one is the latest.
          if (known && known.id !== job.id && job.createdAt < known.createdAt) return {};
          // A copy of the same job that left the server before a pushed change must not undo it.
          if (known && known.id === job.id && job.updatedAt < known.updatedAt) return {};
          return {
            latestJobs: { ...state.latestJobs, [job.taskId]: job },
            tasks: state.tasks.map((t) => (t.id === job.taskId ? { ...t, status: job.status } : t)),
          };
        });
      },
    };
  };

const NEEDS_USER: readonly JobStatus[] = ['waiting_human', 'failed'];
