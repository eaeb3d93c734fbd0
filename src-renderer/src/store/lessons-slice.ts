// Lessons (P2.08): those the open task's Reflections proposed (its cards) and every lesson (Settings → Lessons), kept
// current by `lesson.changed`; a person's decision or edit, and a Reflection asked for from the task's menu.
import type { StateCreator } from 'zustand';
import type { Lesson, LessonScope, ReflectionMode } from '../../../src-shared/lessons';
import { type ApiError, type MaestroApi, toApiError } from '../api/client';
import type { AppState, LoadState } from './types';

export type LessonDecision = 'approve' | 'dismiss' | 'retire';

export interface LessonsSlice {
  /** The lessons of one task (its Reflections'), oldest first. */
  taskLessons: { taskId: string; list: Lesson[] } | null;
  /** Every lesson, newest first (Settings). */
  allLessons: { load: LoadState; list: Lesson[]; error: string | null };
  loadTaskLessons(taskId: string): Promise<void>;
  loadAllLessons(): Promise<void>;
  /** A lesson as an event or an answer brought it: replaced where it is listed, added to its task's list. */
  foldLesson(lesson: Lesson): void;
  decideLesson(
    lessonId: string,
    decision: LessonDecision,
    edit?: { text?: string; scope?: LessonScope },
  ): Promise<ApiError | null>;
  editLesson(lessonId: string, edit: { text?: string; scope?: LessonScope }): Promise<ApiError | null>;
  reflectOnTask(taskId: string): Promise<ApiError | null>;
  /** A folder's own choice of when its tasks are looked back on (null: as Settings say); the spaces listed again. */
  setSpaceReflection(spaceId: string, reflection: ReflectionMode | null): Promise<ApiError | null>;
}

const upsert = (list: readonly Lesson[], lesson: Lesson, at: 'start' | 'end'): Lesson[] =>
  list.some((l) => l.id === lesson.id)
    ? list.map((l) => (l.id === lesson.id ? lesson : l))
    : at === 'start'
      ? [lesson, ...list]
      : [...list, lesson];

export const createLessonsSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], LessonsSlice> =>
  (set, get) => ({
    taskLessons: null,
    allLessons: { load: 'idle', list: [], error: null },

    async loadTaskLessons(taskId) {
      try {
        const { lessons } = await api.listTaskLessons({ taskId });
        if (get().selectedTaskId === taskId) set({ taskLessons: { taskId, list: lessons } });
      } catch {
        // The cards stay as they were; the next event or selection loads them again.
      }
    },

    async setSpaceReflection(spaceId, reflection) {
      try {
        await api.updateSpace({ spaceId, reflection });
        await get().loadPolicySpaces();
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },

    async loadAllLessons() {
      set({ allLessons: { ...get().allLessons, load: 'loading' } });
      try {
        const { lessons } = await api.listLessons({});
        set({ allLessons: { load: 'ready', list: lessons, error: null } });
      } catch (error) {
        set({ allLessons: { ...get().allLessons, load: 'error', error: toApiError(error).message } });
      }
    },

    foldLesson(lesson) {
      const { taskLessons, allLessons } = get();
      set({
        taskLessons:
          taskLessons && taskLessons.taskId === lesson.sourceTaskId
            ? { taskId: taskLessons.taskId, list: upsert(taskLessons.list, lesson, 'end') }
            : taskLessons,
        allLessons:
          allLessons.load === 'idle' ? allLessons : { ...allLessons, list: upsert(allLessons.list, lesson, 'start') },
      });
    },

    async decideLesson(lessonId, decision, edit = {}) {
      try {
        get().foldLesson((await api.decideLesson({ lessonId, decision, ...edit })).lesson);
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },

    async editLesson(lessonId, edit) {
      try {
        get().foldLesson((await api.editLesson({ lessonId, ...edit })).lesson);
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },

    async reflectOnTask(taskId) {
      try {
        await api.reflectOnTask({ taskId });
        return null;
      } catch (error) {
        return toApiError(error);
      }
    },
  });
