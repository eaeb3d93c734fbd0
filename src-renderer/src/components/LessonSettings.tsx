// Settings → Lessons (P2.08): when a task is looked back on by itself (after a failed run, after every run, never),
// how much of the approved lessons a task's instruction gets, when an unused one is offered for retirement — saved to
// settings.json's `lessons` — and every lesson with its status, scope, source task and use, to approve, dismiss,
// retire or approve again. A lesson unused for long is flagged for retirement.
import { useEffect, useState } from 'react';
import {
  LESSON_STATUSES,
  type Lesson,
  type LessonStatus,
  type LessonSettings as Prefs,
} from '../../../src-shared/lessons';
import { useLocale, useT } from '../hooks/useT';
import type { LessonDecision } from '../store/lessons-slice';
import { useAppStore } from '../store/store';
import { formatTime } from './format';
import { scopeWords } from './LessonCards';
import { ErrorNotice, type Outcome, OutcomeNotice } from './OutcomeNotice';
import { SaveActions } from './SettingsFields';
import { UntrustedText } from './UntrustedText';

/**
 * Each folder's own choice of when its tasks are looked back on (a space's `reflection`), over the one above: as
 * Settings say, after failures, after every run, or never.
 */
function SpaceReflections() {
  const t = useT();
  const spaces = useAppStore((s) => s.policySpaces);
  const load = useAppStore((s) => s.loadPolicySpaces);
  const setReflection = useAppStore((s) => s.setSpaceReflection);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void load();
  }, [load]);
  if (spaces.length === 0) return null;
  return (
    <fieldset className="field" data-testid="lessons-spaces">
      <legend>{t('settings.lessons.spaces')}</legend>
      {spaces.map((space) => (
        <label className="field field-inline" key={space.id}>
          <span title={space.folder}>{space.name}</span>
          <select
            value={space.reflection ?? 'settings'}
            onChange={async (e) => {
              const value = e.target.value;
              const failure = await setReflection(
                space.id,
                value === 'settings' ? null : (value as Prefs['reflection']),
              );
              setError(failure ? failure.message : null);
            }}
            data-testid="lessons-space-reflection"
            data-space-id={space.id}
          >
            <option value="settings">{t('settings.lessons.spaces.asSettings')}</option>
            {MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t(`settings.lessons.reflection.${mode}`)}
              </option>
            ))}
          </select>
        </label>
      ))}
      <ErrorNotice error={error} testId="lessons-spaces-error" />
    </fieldset>
  );
}

type NumberField = 'maxLessons' | 'maxChars' | 'retireAfterDays';
const NUMBER_FIELDS: readonly NumberField[] = ['maxLessons', 'maxChars', 'retireAfterDays'];
const MODES = ['failures', 'always', 'off'] as const;

export function LessonSettings() {
  const t = useT();
  const view = useAppStore((s) => s.appSettings);
  const save = useAppStore((s) => s.saveAppSettings);
  const lessons = useAppStore((s) => s.allLessons);
  const loadLessons = useAppStore((s) => s.loadAllLessons);
  const [prefs, setPrefs] = useState<Prefs | null>(null);
  const [text, setText] = useState<Record<NumberField, string> | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [filter, setFilter] = useState<LessonStatus | 'all'>('all');

  useEffect(() => {
    if (!view) return;
    const current = view.settings.lessons;
    setPrefs(current);
    setText({
      maxLessons: String(current.maxLessons),
      maxChars: String(current.maxChars),
      retireAfterDays: String(current.retireAfterDays),
    });
  }, [view]);
  useEffect(() => {
    void loadLessons();
  }, [loadLessons]);

  async function submit() {
    if (!view || !prefs || !text) return;
    const next = { ...prefs };
    for (const field of NUMBER_FIELDS) {
      const value = Number(text[field].trim());
      if (text[field].trim() === '' || !Number.isInteger(value)) {
        setOutcome({ ok: false, text: `${t(`settings.lessons.${field}`)}: ${text[field] || '""'}` });
        return;
      }
      next[field] = value;
    }
    setBusy(true);
    const failure = await save({ ...view.settings, lessons: next });
    setBusy(false);
    setOutcome(failure ? { ok: false, text: failure.message } : { ok: true, text: t('settings.lessons.saved') });
  }

  const shown = lessons.list.filter((l) => filter === 'all' || l.status === filter);
  return (
    <section data-testid="lesson-settings">
      <h3 className="settings-section">{t('settings.lessons')}</h3>
      <p className="field-hint">{t('settings.lessons.about')}</p>
      {prefs && text ? (
        <>
          <label className="field">
            <span>{t('settings.lessons.reflection')}</span>
            <select
              value={prefs.reflection}
              onChange={(e) => setPrefs({ ...prefs, reflection: e.target.value as Prefs['reflection'] })}
              data-testid="lessons-reflection"
            >
              {MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {t(`settings.lessons.reflection.${mode}`)}
                </option>
              ))}
            </select>
          </label>
          <div className="field-row">
            {NUMBER_FIELDS.map((field) => (
              <label className="field" key={field}>
                <span>{t(`settings.lessons.${field}`)}</span>
                <input
                  inputMode="numeric"
                  value={text[field]}
                  onChange={(e) => setText({ ...text, [field]: e.target.value })}
                  data-testid={`lessons-${field}`}
                />
              </label>
            ))}
          </div>
          <SaveActions
            busy={busy}
            onSave={() => void submit()}
            testId="lessons-save"
            label={t('settings.lessons.save')}
          />
          <OutcomeNotice outcome={outcome} testId="lessons-outcome" />
        </>
      ) : null}
      <SpaceReflections />
      <label className="field field-inline">
        <span>{t('settings.lessons.filter')}</span>
        <select
          value={filter}
          onChange={(e) => setFilter(e.target.value as LessonStatus | 'all')}
          data-testid="lessons-filter"
        >
          <option value="all">{t('settings.lessons.all')}</option>
          {LESSON_STATUSES.map((status) => (
            <option key={status} value={status}>
              {t(`lessons.status.${status}`)}
            </option>
          ))}
        </select>
      </label>
      <ErrorNotice
        error={lessons.error ? t('settings.lessons.loadError', { error: lessons.error }) : null}
        testId="lessons-load-error"
      />
      {shown.length === 0 ? (
        <p className="field-hint" data-testid="lessons-empty">
          {t('settings.lessons.empty')}
        </p>
      ) : (
        <ul className="stack-list" data-testid="lessons-list">
          {shown.map((lesson) => (
            <LessonRow key={lesson.id} lesson={lesson} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** What a person may do with a lesson in each status. */
const ACTIONS: Record<
  LessonStatus,
  { decision: LessonDecision; label: 'approve' | 'dismiss' | 'retire' | 'restore' }[]
> = {
  proposed: [
    { decision: 'approve', label: 'approve' },
    { decision: 'dismiss', label: 'dismiss' },
  ],
  approved: [{ decision: 'retire', label: 'retire' }],
  dismissed: [{ decision: 'approve', label: 'restore' }],
  retired: [{ decision: 'approve', label: 'restore' }],
};

function LessonRow({ lesson }: { lesson: Lesson }) {
  const t = useT();
  const locale = useLocale();
  const decide = useAppStore((s) => s.decideLesson);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function act(decision: LessonDecision) {
    setBusy(true);
    const failure = await decide(lesson.id, decision);
    setBusy(false);
    setError(failure ? t('lessons.failed', { message: failure.message }) : null);
  }

  return (
    <li
      className="lesson-row"
      data-testid="lesson-row"
      data-lesson-id={lesson.id}
      data-status={lesson.status}
      data-stale={lesson.stale}
    >
      <div className="lesson-text">
        <UntrustedText text={lesson.text} />
      </div>
      <p className="field-hint">
        {t(`lessons.status.${lesson.status}`)} · {scopeWords(t, lesson, lesson.scope)}
        {lesson.sourceTaskId ? ` · ${t('settings.lessons.from', { task: lesson.sourceTaskId })}` : ''} ·{' '}
        {lesson.lastUsedAt
          ? t('lessons.used', { count: lesson.useCount, when: formatTime(lesson.lastUsedAt, locale) })
          : t('lessons.unused')}
      </p>
      {lesson.stale ? (
        <p className="notice notice-warn" data-testid="lesson-stale">
          {t('lessons.stale')}
        </p>
      ) : null}
      {lesson.contradictedBy ? (
        <div className="notice notice-warn" data-testid="lesson-contradicted">
          <p>{t('lessons.contradicted')}</p>
          <UntrustedText text={lesson.contradictedBy.text} />
        </div>
      ) : null}
      <div className="approval-actions">
        {ACTIONS[lesson.status].map(({ decision, label }) => (
          <button
            key={label}
            type="button"
            className={`button${decision === 'approve' ? ' button-primary' : ''}`}
            disabled={busy}
            onClick={() => void act(decision)}
            data-testid={`lesson-row-${label}`}
          >
            {t(`lessons.${label}`)}
          </button>
        ))}
      </div>
      <ErrorNotice error={error} testId="lesson-row-error" />
    </li>
  );
}
