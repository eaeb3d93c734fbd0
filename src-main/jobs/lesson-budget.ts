// Which approved lessons a job's instruction gets (P2.08): those in scope, most relevant first (repos/lessons.ts
// approvedFor), as many as the settings' count and size allow; a lesson too long for what is left is passed over for
// a shorter one after it. Their use is counted when the instruction is built.

export interface LessonBudget {
  maxLessons: number;
  /** Characters of lesson text, summed. */
  maxChars: number;
}

/** The defaults of the settings (src-shared/lessons.ts LessonSettings). */
export const DEFAULT_LESSON_BUDGET: LessonBudget = { maxLessons: 5, maxChars: 1500 };

export function withinBudget<L extends { text: string }>(ranked: readonly L[], budget: LessonBudget): L[] {
  const chosen: L[] = [];
  let chars = 0;
  for (const lesson of ranked) {
    if (chosen.length >= budget.maxLessons) break;
    if (chars + lesson.text.length > budget.maxChars) continue;
    chosen.push(lesson);
    chars += lesson.text.length;
  }
  return chosen;
}
