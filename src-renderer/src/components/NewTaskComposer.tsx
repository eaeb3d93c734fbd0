// Starting a task from a message: the text, then chips for the folder, the piece and the model, and attachments
// (picked, dropped or pasted; checked here with the backend's rules, src-shared/attachments.ts). Ctrl+Enter or
// Cmd+Enter sends. It is the empty view (no task open) and the "New task" dialog. The title is not asked for: the host
// names the task from its message (src-main/tasks/task-titles.ts) and the task list renames it. The server validates
// again; a 400 names its field and shows beside it, with everything typed, chosen and attached still there.
import { type FormEvent, type KeyboardEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_TOTAL_MAX_BYTES, formatBytes } from '../../../src-shared/attachments';
import type { OpInput } from '../api/client';
import { useAttachments } from '../hooks/useAttachments';
import { IS_MAC } from '../hooks/useShortcuts';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { AttachmentChips } from './AttachmentChips';
import { errorsOn } from './field-errors';
import { FolderChip, ModelChip, PieceChip } from './NewTaskChips';
import { ErrorNotice } from './OutcomeNotice';

const FIELDS = ['instruction', 'pieceId', 'profile', 'workspacePath', 'attachments'] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<Field, string>>;

const SEND_KEYS = IS_MAC ? '⌘+Enter' : 'Ctrl+Enter';

interface Props {
  /** `page`: the empty view; `dialog`: inside "New task" (which gives the heading its id and a Cancel). */
  place: 'page' | 'dialog';
  headingId?: string;
  onCancel?(): void;
  onCreated?(): void;
}

/**
 * The empty view's composer shows once the profiles are known (without any, the first-run setup takes the view instead)
 * and while the dialog's is closed, and says so in the store; the dialog's says it is open.
 */
export function NewTaskComposer(props: Props) {
  const { place } = props;
  const profilesKnown = useAppStore((s) => s.profilesLoad === 'ready' || s.profilesLoad === 'error');
  const dialogOpen = useAppStore((s) => s.dialogComposer);
  const setPageComposer = useAppStore((s) => s.setPageComposer);
  const setDialogComposer = useAppStore((s) => s.setDialogComposer);
  // Once known they stay known: a later reload of the profiles must not take the composer away mid-sentence.
  const [settled, setSettled] = useState(profilesKnown);
  if (profilesKnown && !settled) setSettled(true);
  const shown = place === 'dialog' || (settled && !dialogOpen);

  useEffect(() => {
    if (!shown) return;
    const say = place === 'page' ? setPageComposer : setDialogComposer;
    say(true);
    return () => say(false);
  }, [place, shown, setPageComposer, setDialogComposer]);

  return shown ? <ComposerForm {...props} /> : null;
}

function ComposerForm({ place, headingId, onCancel, onCreated }: Props) {
  const createTask = useAppStore((s) => s.createTask);
  const [instruction, setInstruction] = useState('');
  const [pieceId, setPieceId] = useState<string | null>(null);
  const [profile, setProfile] = useState<string | null>(null);
  const [workspacePath, setWorkspacePath] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const ownId = useId();
  const titleId = headingId ?? ownId;
  const t = useT();
  const textRef = useComposerFocus(place);
  const attach = useAttachments();

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    if (attach.reading || submitting) return;
    setSubmitting(true);
    setErrors({});
    setFormError(null);
    const outcome = await createTask(taskInput({ instruction, pieceId, profile, workspacePath }, attach.list));
    setSubmitting(false);
    if (outcome.ok) return onCreated?.();
    const byField = errorsOn(outcome.error, FIELDS);
    setErrors(byField);
    if (Object.keys(byField).length === 0) setFormError(outcome.error.message);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    // Both modifiers on every platform: a Mac keyboard on Linux, or a habit from another app, still sends.
    if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
    e.preventDefault();
    void submit();
  }

  const errorId = (field: Field) => `${titleId}-${field}-error`;
  const fieldError = (field: Field) =>
    errors[field] ? (
      <p className="field-error" id={errorId(field)} data-testid={`field-error-${field}`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <form
      onSubmit={submit}
      onPaste={attach.onPaste}
      onDragOver={attach.onDragOver}
      onDragLeave={attach.onDragLeave}
      onDrop={attach.onDrop}
      className={`new-task new-task-${place}${attach.dragging ? ' create-form-dragging' : ''}`}
      aria-labelledby={titleId}
      data-testid="create-task-form"
      data-dragging={attach.dragging ? 'true' : undefined}
      noValidate
    >
      <h2 id={titleId} className="new-task-heading">
        {place === 'dialog' ? t('create.title') : t('newTask.heading')}
      </h2>
      <div className="new-task-box">
        <textarea
          ref={textRef}
          className="new-task-text"
          rows={place === 'page' ? 5 : 4}
          value={instruction}
          onChange={(e) => setInstruction(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('newTask.placeholder', { keys: SEND_KEYS })}
          aria-label={t('newTask.label')}
          aria-keyshortcuts="Control+Enter Meta+Enter"
          aria-invalid={errors.instruction ? true : undefined}
          aria-describedby={errors.instruction ? errorId('instruction') : undefined}
          data-testid="field-instruction"
        />
        {fieldError('instruction')}
        <AttachmentChips attachments={attach.list} onRemove={attach.remove} />
        {/* biome-ignore lint/a11y/useSemanticElements: a group of chips, not a set of form fields with a legend */}
        <div className="new-task-chips" role="group" aria-label={t('newTask.chips')}>
          <FolderChip
            value={workspacePath}
            onChange={setWorkspacePath}
            onPickError={(message) => setErrors((e) => ({ ...e, workspacePath: message }))}
            invalid={Boolean(errors.workspacePath)}
            error={fieldError('workspacePath')}
          />
          <PieceChip
            value={pieceId}
            onChange={setPieceId}
            invalid={Boolean(errors.pieceId)}
            error={fieldError('pieceId')}
          />
          <ModelChip
            value={profile}
            onChange={setProfile}
            invalid={Boolean(errors.profile)}
            error={fieldError('profile')}
          />
          <AttachButton onFiles={(files) => attach.add(files, false)} invalid={Boolean(errors.attachments)} />
          <span className="new-task-actions">
            {onCancel ? (
              <button type="button" className="button" onClick={onCancel}>
                {t('create.cancel')}
              </button>
            ) : null}
            <button
              type="submit"
              className="button button-primary"
              disabled={submitting || attach.reading}
              title={t('newTask.sendTitle', { keys: SEND_KEYS })}
              data-testid="create-submit"
            >
              {submitting ? t('newTask.sending') : t('newTask.send')}
            </button>
          </span>
        </div>
        {attach.dragging ? <p className="field-hint">{t('create.dropHere')}</p> : null}
        <AttachmentProblems problems={attach.problems} />
        {fieldError('attachments')}
        <ErrorNotice error={formError} testId="create-task-error" />
      </div>
    </form>
  );
}

/**
 * The composer's text field, focused when the dialog opens; the empty view's only when "New task" asks (Ctrl+N, the
 * button): on its own it would hold the keys meant for the window (Ctrl+J, Ctrl+B) as typing. The dialog may open
 * before the profiles are known, or after one was added, so it loads them (App does for the empty view).
 */
function useComposerFocus(place: Props['place']): RefObject<HTMLTextAreaElement | null> {
  const loadProfiles = useAppStore((s) => s.loadProfiles);
  const focusAsked = useAppStore((s) => s.composerFocus);
  const textRef = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (place === 'dialog') void loadProfiles();
  }, [place, loadProfiles]);
  const focusAtMount = useRef(focusAsked);
  useEffect(() => {
    if (place === 'dialog' || focusAsked !== focusAtMount.current) textRef.current?.focus();
  }, [place, focusAsked]);
  return textRef;
}

/** What the composer sends: the text, and each choice only when one was made. */
function taskInput(
  chosen: { instruction: string; pieceId: string | null; profile: string | null; workspacePath: string },
  attachments: readonly { name: string; mediaType: string; data: string }[],
): OpInput<'createTask'> {
  const input: OpInput<'createTask'> = { instruction: chosen.instruction };
  if (chosen.pieceId !== null) input.pieceId = chosen.pieceId;
  if (chosen.profile !== null) input.profile = chosen.profile;
  if (chosen.workspacePath.trim() !== '') input.workspacePath = chosen.workspacePath.trim();
  if (attachments.length > 0)
    input.attachments = attachments.map(({ name, mediaType, data }) => ({ name, mediaType, data }));
  return input;
}

/** The 📎 chip: picks files (the same one again after it was removed). */
function AttachButton({ onFiles, invalid }: { onFiles(files: File[]): void; invalid: boolean }) {
  const t = useT();
  return (
    <label
      className="chip chip-button attachment-add-button"
      title={t('create.attachHint', {
        each: formatBytes(ATTACHMENT_MAX_BYTES),
        total: formatBytes(ATTACHMENTS_TOTAL_MAX_BYTES),
      })}
      data-testid="attachments-field"
    >
      <span aria-hidden="true">📎</span> {t('newTask.attach')}
      <input
        type="file"
        multiple
        className="visually-hidden"
        onChange={(e) => {
          onFiles([...(e.target.files ?? [])]);
          // Cleared, so the same file can be chosen again after it was removed.
          e.target.value = '';
        }}
        aria-invalid={invalid ? true : undefined}
        data-testid="field-attachments"
      />
    </label>
  );
}

/** Why files were not attached, one line each. */
function AttachmentProblems({ problems }: { problems: readonly { key: number; name: string; text: string }[] }) {
  if (problems.length === 0) return null;
  return (
    <ul className="attachment-errors" role="alert" data-testid="attachment-errors">
      {problems.map((p) => (
        <li key={p.key} className="field-error" data-testid="attachment-error" data-name={p.name}>
          {p.text}
        </li>
      ))}
    </ul>
  );
}
