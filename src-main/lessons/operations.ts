// The lessons' operations (P2.08): a Reflection on demand, the lessons of a task (its cards) and of the host
// (Settings), and a person's decision or edit — compare-and-set on the lesson's status, redacted before it is stored.
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import {
  LESSON_EVIDENCE_MAX,
  LESSON_TEXT_MAX,
  type Lesson,
  type LessonSettings,
  type LessonStatus,
} from '../../src-shared/lessons';
import { toJob } from '../db/repos/jobs';
import type { LessonRecord } from '../db/repos/lessons';
import type { Store } from '../db/store';
import { queueReflection } from '../jobs/reflection';
import { redactSecrets } from './redact';

export interface LessonContext {
  store: Store;
  /** The settings' lessons part, read per call (Settings may change it). */
  lessonSettings: () => LessonSettings;
  /** The secrets this host knows, redacted from a person's edit as from a Reflection's lessons. */
  secrets: () => readonly string[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The lesson as shown: `stale` when approved and unused (since its approval) for longer than the settings allow;
 * `contradictedBy` the later approved lesson that contradicts it, if one does (`contradictions`: the store's).
 */
export function toLesson(
  lesson: LessonRecord,
  retireAfterDays: number,
  contradictions: ReadonlyMap<string, { id: string; text: string }>,
  now = Date.now(),
): Lesson {
  const since = lesson.lastUsedAt ?? lesson.decidedAt ?? lesson.createdAt;
  const stale = lesson.status === 'approved' && now - Date.parse(since) > retireAfterDays * DAY_MS;
  const contradictedBy = (lesson.status === 'approved' && contradictions.get(lesson.id)) || null;
  return { ...lesson, stale, contradictedBy };
}

const shown = (ctx: LessonContext) => {
  const days = ctx.lessonSettings().retireAfterDays;
  const contradictions = ctx.store.lessons.contradictions();
  return (lesson: LessonRecord) => toLesson(lesson, days, contradictions);
};

function publish(ctx: LessonContext, lesson: Lesson): void {
  ctx.store.publish({ type: 'lesson.changed', taskId: lesson.sourceTaskId ?? '', jobId: null, lesson });
}

export function reflectOnTask(ctx: LessonContext, { taskId }: { taskId: string }): OpOutput<'reflectOnTask'> {
  if (!ctx.store.tasks.get(taskId)) throw new MaestroError('not_found', `no task ${taskId}`);
  const job = queueReflection(ctx.store, taskId, true);
  if (!job) throw new Error(`reflect: no Reflection job was queued for ${taskId}`);
  return { job: toJob(job) };
}

export function listTaskLessons(ctx: LessonContext, { taskId }: { taskId: string }): OpOutput<'listTaskLessons'> {
  if (!ctx.store.tasks.get(taskId)) throw new MaestroError('not_found', `no task ${taskId}`);
  return { lessons: ctx.store.lessons.listForTask(taskId).map(shown(ctx)) };
}

export function listLessons(ctx: LessonContext, { status }: { status?: LessonStatus }): OpOutput<'listLessons'> {
  return { lessons: ctx.store.lessons.list(status).map(shown(ctx)) };
}

/** Which status a decision may be taken from, and what it leads to. */
const DECISIONS = {
  approve: { from: ['proposed', 'dismissed', 'retired'], to: 'approved' },
  dismiss: { from: ['proposed'], to: 'dismissed' },
  retire: { from: ['approved'], to: 'retired' },
} as const satisfies Record<string, { from: readonly LessonStatus[]; to: LessonStatus }>;

export function decideLesson(ctx: LessonContext, input: OpParsedInput<'decideLesson'>): OpOutput<'decideLesson'> {
  const { store } = ctx;
  const lesson = store.transact(() => {
    const current = requireLesson(store, input.lessonId);
    const rule = DECISIONS[input.decision];
    if (!(rule.from as readonly LessonStatus[]).includes(current.status)) {
      throw new MaestroError(
        current.status === rule.to ? 'already_decided' : 'conflict',
        `lesson ${current.id} is ${current.status}; ${input.decision} applies to a ${rule.from.join(' or ')} lesson`,
      );
    }
    const patch = {
      ...(input.text !== undefined ? { text: redactSecrets(input.text, ctx.secrets()).slice(0, LESSON_TEXT_MAX) } : {}),
      ...(input.scope !== undefined ? { scope: input.scope } : {}),
    };
    const decided = store.lessons.decide(current.id, current.status, rule.to, patch);
    if (!decided) throw new Error(`lesson ${current.id} changed inside its own transaction`);
    const view = shown(ctx)(decided);
    publish(ctx, view);
    return view;
  });
  return { lesson };
}

export function editLesson(ctx: LessonContext, input: OpParsedInput<'editLesson'>): OpOutput<'editLesson'> {
  const { store } = ctx;
  const lesson = store.transact(() => {
    const current = requireLesson(store, input.lessonId);
    if (current.status !== 'proposed' && current.status !== 'approved') {
      throw new MaestroError(
        'conflict',
        `lesson ${current.id} is ${current.status}; only a proposed or approved one is edited`,
      );
    }
    const known = ctx.secrets();
    const edited = store.lessons.edit(current.id, current.status, {
      ...(input.text !== undefined ? { text: redactSecrets(input.text, known).slice(0, LESSON_TEXT_MAX) } : {}),
      ...(input.evidence !== undefined
        ? { evidence: redactSecrets(input.evidence, known).slice(0, LESSON_EVIDENCE_MAX) }
        : {}),
      ...(input.scope !== undefined ? { scope: input.scope } : {}),
    });
    if (!edited) throw new Error(`lesson ${current.id} changed inside its own transaction`);
    const view = shown(ctx)(edited);
    publish(ctx, view);
    return view;
  });
  return { lesson };
}

function requireLesson(store: Store, id: string): LessonRecord {
  const lesson = store.lessons.get(id);
  if (!lesson) throw new MaestroError('not_found', `no lesson ${id}`);
  return lesson;
}
