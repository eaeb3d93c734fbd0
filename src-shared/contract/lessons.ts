// Lessons and Reflection (P2.08): a task's Reflection on demand, the lessons a task's Reflection proposed (its card),
// every lesson (Settings), and a person's decision on one: approve, edit, dismiss, retire.
import { z } from 'zod';
import { Job } from '../entities';
import { LESSON_EVIDENCE_MAX, LESSON_TEXT_MAX, Lesson, LessonScope, LessonStatus } from '../lessons';
import { Id, NonBlank, op, taskRef } from './operation';

const lessonRef = { lessonId: Id };

export const lessonOperations = {
  /** Queues a Reflection job of the task now (its latest job must have ended); answers with that job. */
  reflectOnTask: op({
    method: 'POST',
    path: '/tasks/:taskId/reflect',
    status: 201,
    input: taskRef,
    output: z.object({ job: Job }),
  }),
  /** The lessons the task's Reflections proposed, oldest first, whatever became of them. */
  listTaskLessons: op({
    method: 'GET',
    path: '/tasks/:taskId/lessons',
    status: 200,
    input: taskRef,
    output: z.object({ lessons: z.array(Lesson) }),
  }),
  /** Every lesson (Settings), newest first; `status` keeps one kind. */
  listLessons: op({
    method: 'GET',
    path: '/lessons',
    status: 200,
    input: z.object({ status: LessonStatus.optional() }).strict(),
    output: z.object({ lessons: z.array(Lesson) }),
  }),
  /**
   * A person's decision: approve (only approved lessons are used), dismiss, or retire an approved one. `text` and
   * `scope`, when given, are the person's edit, applied with the decision.
   */
  decideLesson: op({
    method: 'POST',
    path: '/lessons/:lessonId/decide',
    status: 200,
    input: z
      .object({
        ...lessonRef,
        decision: z.enum(['approve', 'dismiss', 'retire']),
        text: NonBlank(LESSON_TEXT_MAX).optional(),
        scope: LessonScope.optional(),
      })
      .strict(),
    output: z.object({ lesson: Lesson }),
  }),
  /** A person's edit of a proposed or approved lesson; its status stays. */
  editLesson: op({
    method: 'POST',
    path: '/lessons/:lessonId',
    status: 200,
    input: z
      .object({
        ...lessonRef,
        text: NonBlank(LESSON_TEXT_MAX).optional(),
        evidence: NonBlank(LESSON_EVIDENCE_MAX).optional(),
        scope: LessonScope.optional(),
      })
      .strict(),
    output: z.object({ lesson: Lesson }),
  }),
};
