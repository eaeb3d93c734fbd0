// CreateTaskDialog: instruction, optional title, piece, LLM profile, workspace folder (typed, from the recent ones, or
// picked with the OS dialog inside Electron) and attachments (picked, dropped or pasted; checked here with the same
// rules as the backend, src-shared/attachments.ts). The server validates again; a 400 names the field it is about and
// the message shows under that field, with everything typed and attached still there. Escape is App's shortcut.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { ATTACHMENT_MAX_BYTES, ATTACHMENTS_TOTAL_MAX_BYTES, formatBytes } from '../../../src-shared/attachments';
import type { OpInput } from '../api/client';
import { useAttachments } from '../hooks/useAttachments';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';
import { AttachmentChips } from './AttachmentChips';
import { ErrorNotice } from './OutcomeNotice';
import { WorkspaceField } from './WorkspaceField';

const FIELDS = ['instruction', 'title', 'pieceId', 'profile', 'workspacePath', 'attachments'] as const;
type Field = (typeof FIELDS)[number];
type FieldErrors = Partial<Record<Field, string>>;

interface Props {
  onClose(): void;
}

export function CreateTaskDialog({ onClose }: Props) {
  const pieces = useAppStore((s) => s.pieces);
  const piecesLoad = useAppStore((s) => s.piecesLoad);
  const createTask = useAppStore((s) => s.createTask);
  const profiles = useAppStore((s) => s.profiles);
  const loadProfiles = useAppStore((s) => s.loadProfiles);
  const [instruction, setInstruction] = useState('');
  const [title, setTitle] = useState('');
  const [pieceId, setPieceId] = useState('');
  const [profile, setProfile] = useState('');
  const [workspacePath, setWorkspacePath] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const headingId = useId();
  const ref = useModalDialog(onClose);
  const t = useT();
  const instructionRef = useRef<HTMLTextAreaElement>(null);
  const attach = useAttachments();

  useEffect(() => {
    void loadProfiles();
    instructionRef.current?.focus();
  }, [loadProfiles]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (attach.reading) return;
    setSubmitting(true);
    setErrors({});
    setFormError(null);
    const input: OpInput<'createTask'> = { instruction };
    if (title !== '') input.title = title;
    if (pieceId !== '') input.pieceId = pieceId;
    if (profile !== '') input.profile = profile;
    if (workspacePath !== '') input.workspacePath = workspacePath;
    if (attach.list.length > 0) {
      input.attachments = attach.list.map(({ name, mediaType, data }) => ({ name, mediaType, data }));
    }
    const outcome = await createTask(input);
    setSubmitting(false);
    if (outcome.ok) return onClose();
    const byField: FieldErrors = {};
    for (const field of FIELDS) {
      const message = outcome.error.issueFor(field);
      if (message) byField[field] = message;
    }
    setErrors(byField);
    if (Object.keys(byField).length === 0) setFormError(outcome.error.message);
  }

  const defaultName = profiles.find((p) => p.isDefault)?.name;
  const fieldProps = (field: Field) => ({
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? `${headingId}-${field}-error` : undefined,
  });
  const fieldError = (field: Field) =>
    errors[field] ? (
      <p className="field-error" id={`${headingId}-${field}-error`} data-testid={`field-error-${field}`}>
        {errors[field]}
      </p>
    ) : null;

  return (
    <dialog ref={ref} className="modal" aria-labelledby={headingId}>
      <div className="dialog dialog-create">
        <form
          onSubmit={submit}
          onPaste={attach.onPaste}
          onDragOver={attach.onDragOver}
          onDragLeave={attach.onDragLeave}
          onDrop={attach.onDrop}
          className={attach.dragging ? 'create-form create-form-dragging' : 'create-form'}
          data-testid="create-task-form"
          data-dragging={attach.dragging ? 'true' : undefined}
          noValidate
        >
          <h2 id={headingId}>{t('create.title')}</h2>
          <label className="field">
            <span>{t('create.instruction')}</span>
            <textarea
              ref={instructionRef}
              rows={5}
              value={instruction}
              onChange={(e) => setInstruction(e.target.value)}
              placeholder={t('create.instructionPlaceholder')}
              data-testid="field-instruction"
              {...fieldProps('instruction')}
            />
            {fieldError('instruction')}
          </label>
          <label className="field">
            <span>
              {t('create.titleField')} <em>{t('create.optional')}</em>
            </span>
            <input
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              placeholder={t('create.titlePlaceholder')}
              data-testid="field-title"
              {...fieldProps('title')}
            />
            {fieldError('title')}
          </label>
          <label className="field">
            <span>{t('create.piece')}</span>
            <select
              value={pieceId}
              onChange={(e) => setPieceId(e.target.value)}
              data-testid="field-piece"
              {...fieldProps('pieceId')}
            >
              <option value="">{t('create.defaultPiece')}</option>
              {pieces.map((p) => (
                <option key={p.id} value={p.id} title={p.description}>
                  {p.name}
                  {p.source === 'workspace' ? t('create.workspaceSource') : ''}
                </option>
              ))}
            </select>
            {piecesLoad === 'error' ? <p className="field-hint">{t('create.piecesError')}</p> : null}
            {fieldError('pieceId')}
          </label>
          <label className="field">
            <span>{t('create.profile')}</span>
            <select
              value={profile}
              onChange={(e) => setProfile(e.target.value)}
              data-testid="field-profile"
              {...fieldProps('profile')}
            >
              <option value="">
                {t('create.defaultProfile')}
                {defaultName ? ` (${defaultName})` : ''}
              </option>
              {profiles.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} — {p.model}
                </option>
              ))}
            </select>
            {profiles.length === 0 ? <p className="field-hint">{t('create.noProfile')}</p> : null}
            {fieldError('profile')}
          </label>
          <WorkspaceField
            value={workspacePath}
            onChange={setWorkspacePath}
            onPickError={(message) => setErrors((e) => ({ ...e, workspacePath: message }))}
            inputProps={fieldProps('workspacePath')}
            error={fieldError('workspacePath')}
          />
          <div className="field" data-testid="attachments-field">
            <span>
              {t('create.attachments')} <em>{t('create.optional')}</em>
            </span>
            <AttachmentChips attachments={attach.list} onRemove={attach.remove} />
            <div className="attachment-add">
              <label className="button attachment-add-button">
                {t('create.addFiles')}
                <input
                  type="file"
                  multiple
                  className="visually-hidden"
                  onChange={(e) => {
                    attach.add([...(e.target.files ?? [])], false);
                    // Cleared, so the same file can be chosen again after it was removed.
                    e.target.value = '';
                  }}
                  data-testid="field-attachments"
                  {...fieldProps('attachments')}
                />
              </label>
              <span className="field-hint">
                {attach.dragging
                  ? t('create.dropHere')
                  : t('create.attachHint', {
                      each: formatBytes(ATTACHMENT_MAX_BYTES),
                      total: formatBytes(ATTACHMENTS_TOTAL_MAX_BYTES),
                    })}
              </span>
            </div>
            {attach.problems.length > 0 ? (
              <ul className="attachment-errors" role="alert" data-testid="attachment-errors">
                {attach.problems.map((p) => (
                  <li key={p.key} className="field-error" data-testid="attachment-error" data-name={p.name}>
                    {p.text}
                  </li>
                ))}
              </ul>
            ) : null}
            {fieldError('attachments')}
          </div>
          <ErrorNotice error={formError} testId="create-task-error" />
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              {t('create.cancel')}
            </button>
            <button
              type="submit"
              className="button button-primary"
              disabled={submitting || attach.reading}
              data-testid="create-submit"
            >
              {submitting ? t('create.creating') : t('create.submit')}
            </button>
          </div>
        </form>
      </div>
    </dialog>
  );
}
