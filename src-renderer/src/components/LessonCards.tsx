// The cards of the lessons a task's Reflection proposed (P2.08), in its chat: each one sentence with its evidence
// (the model's words, shown as untrusted text), where it would apply, and Approve / Edit / Dismiss. None is used until
// a person approves it; a decided lesson leaves the cards (Settings → Lessons lists them all).
import { useEffect, useState } from 'react';
import { LESSON_SCOPES, LESSON_TEXT_MAX, type Lesson, type LessonScope } from '../../../src-shared/lessons';
import { useCardAction } from '../hooks/useCardAction';
import { useT } from '../hooks/useT';
import type { Translate } from '../i18n/translate';
import { useAppStore } from '../store/store';
import { UntrustedText } from './UntrustedText';

const NO_LESSONS: Lesson[] = [];

export function LessonCards({ taskId }: { taskId: string }) {
  const t = useT();
  const lessons = useAppStore((s) => (s.taskLessons?.taskId === taskId ? s.taskLessons.list : NO_LESSONS));
  const load = useAppStore((s) => s.loadTaskLessons);
  useEffect(() => {
    void load(taskId);
  }, [taskId, load]);

  const proposed = lessons.filter((l) => l.status === 'proposed');
  if (proposed.length === 0) return null;
  return (
    <section className="lesson-cards" aria-label={t('lessons.cards')} data-testid="lesson-cards">
      <h3 className="task-grants-title">{t('lessons.cards')}</h3>
      <p className="field-hint">{t('lessons.cardsHint')}</p>
      <ul className="stack-list">
        {proposed.map((lesson) => (
          <LessonCard key={lesson.id} lesson={lesson} />
        ))}
      </ul>
    </section>
  );
}

export const scopeWords = (t: Translate, lesson: Pick<Lesson, 'pieceId'>, scope: LessonScope) =>
  t(`lessons.scope.${scope}`, { piece: lesson.pieceId });

function LessonCard({ lesson }: { lesson: Lesson }) {
  const t = useT();
  const decide = useAppStore((s) => s.decideLesson);
  const edit = useAppStore((s) => s.editLesson);
  const { busy, error, run } = useCardAction();
  const [scope, setScope] = useState<LessonScope>(lesson.scope);
  const [draft, setDraft] = useState<string | null>(null);
  const outcome = (failure: Awaited<ReturnType<typeof decide>>) =>
    failure ? { ok: false as const, error: failure } : { ok: true as const };

  return (
    <li className="approval-card lesson-card" data-testid="lesson-card" data-lesson-id={lesson.id}>
      {draft === null ? (
        <div className="lesson-text" data-testid="lesson-text">
          <UntrustedText text={lesson.text} />
        </div>
      ) : (
        <label className="field">
          <span>{t('lessons.textLabel', { max: LESSON_TEXT_MAX })}</span>
          <textarea
            value={draft}
            maxLength={LESSON_TEXT_MAX}
            rows={2}
            onChange={(e) => setDraft(e.target.value)}
            data-testid="lesson-edit-text"
          />
        </label>
      )}
      {lesson.evidence ? (
        <div className="field-hint" data-testid="lesson-evidence">
          {t('lessons.evidence')}
          <UntrustedText text={lesson.evidence} />
        </div>
      ) : null}
      <label className="field field-inline">
        <span>{t('lessons.scopeLabel')}</span>
        <select
          value={scope}
          onChange={(e) => setScope(e.target.value as LessonScope)}
          disabled={busy}
          data-testid="lesson-scope"
        >
          {LESSON_SCOPES.map((s) => (
            <option key={s} value={s}>
              {scopeWords(t, lesson, s)}
            </option>
          ))}
        </select>
      </label>
      <div className="approval-actions">
        {draft === null ? (
          <>
            <button
              type="button"
              className="button button-primary"
              disabled={busy}
              onClick={() => void run(async () => outcome(await decide(lesson.id, 'approve', { scope })))}
              data-testid="lesson-approve"
            >
              {t('lessons.approve')}
            </button>
            <button
              type="button"
              className="button"
              disabled={busy}
              onClick={() => setDraft(lesson.text)}
              data-testid="lesson-edit"
            >
              {t('lessons.edit')}
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={busy}
              onClick={() => void run(async () => outcome(await decide(lesson.id, 'dismiss')))}
              data-testid="lesson-dismiss"
            >
              {t('lessons.dismiss')}
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="button button-primary"
              disabled={busy || draft.trim() === ''}
              onClick={() =>
                void run(async () => {
                  const failure = await edit(lesson.id, { text: draft, scope });
                  if (!failure) setDraft(null);
                  return outcome(failure);
                })
              }
              data-testid="lesson-save"
            >
              {t('lessons.save')}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => setDraft(null)}>
              {t('lessons.cancel')}
            </button>
          </>
        )}
      </div>
      {error ? (
        <p className="text-error approval-error" role="alert" data-testid="lesson-error">
          {t('lessons.failed', { message: error })}
        </p>
      ) : null}
    </li>
  );
}
