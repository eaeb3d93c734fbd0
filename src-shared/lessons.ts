// Lessons (spec §2, P2.08): what a Reflection job proposes after a task's job ended, one sentence with its evidence.
// A person owns them: a lesson is `proposed` until approved, edited or dismissed, and only approved ones reach later
// jobs — in their task instruction, never in the cached preamble. The settings name when Reflection runs and how much
// of the lessons a job gets.
import { z } from 'zod';

export const LESSON_STATUSES = ['proposed', 'approved', 'dismissed', 'retired'] as const;
export const LessonStatus = z.enum(LESSON_STATUSES);
export type LessonStatus = z.infer<typeof LessonStatus>;

/** Where a lesson applies: the workspace of its source task, the piece its source task ran (any workspace), or all. */
export const LESSON_SCOPES = ['workspace', 'piece', 'everywhere'] as const;
export const LessonScope = z.enum(LESSON_SCOPES);
export type LessonScope = z.infer<typeof LessonScope>;

/** The most a lesson's sentence may hold: one sentence, not a rule book. */
export const LESSON_TEXT_MAX = 300;
/** The most its evidence may hold. */
export const LESSON_EVIDENCE_MAX = 500;
/** A Reflection proposes at most this many. */
export const LESSONS_PER_REFLECTION = 3;

export const Lesson = z.object({
  id: z.string(),
  text: z.string(),
  evidence: z.string(),
  status: LessonStatus,
  scope: LessonScope,
  workspacePath: z.string(),
  pieceId: z.string(),
  /** The task whose Reflection proposed it; null once that task was deleted. */
  sourceTaskId: z.string().nullable(),
  sourceJobId: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  useCount: z.number().int(),
  /** Approved and unused (or never used) for longer than the settings' retireAfterDays: Settings offers to retire it. */
  stale: z.boolean(),
  /** The earlier lesson this one contradicts, as its Reflection named it (null: none). */
  replaces: z.string().nullable(),
  /**
   * An approved lesson that a later approved lesson contradicts: that later one (the newest, if several), and Settings
   * offers to retire this one. Null otherwise.
   */
  contradictedBy: z.object({ id: z.string(), text: z.string() }).nullable(),
});
export type Lesson = z.infer<typeof Lesson>;

/** When a Reflection job runs by itself: after a failed job (default), after every ended job, or never. */
export const REFLECTION_MODES = ['failures', 'always', 'off'] as const;
export const ReflectionMode = z.enum(REFLECTION_MODES);
export type ReflectionMode = z.infer<typeof ReflectionMode>;

export const LessonSettings = z.strictObject({
  reflection: ReflectionMode.default('failures'),
  /** The most approved lessons one job's instruction gets. */
  maxLessons: z.number().int().min(0).max(20).default(5),
  /** The most characters those lessons take in the instruction (about a quarter as many tokens). */
  maxChars: z.number().int().min(100).max(8000).default(1500),
  /** An approved lesson unused this many days is offered for retirement. */
  retireAfterDays: z.number().int().min(1).max(3650).default(60),
});
export type LessonSettings = z.infer<typeof LessonSettings>;
