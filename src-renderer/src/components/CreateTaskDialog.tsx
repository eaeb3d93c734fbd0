// CreateTaskDialog: instruction, optional title, piece, LLM profile and workspace folder. The server validates; a 400 names the
// field it is about and the message shows under that field.
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { OpInput } from '../api/client';
import { useAppStore } from '../store/store';

const FIELDS = ['instruction', 'title', 'pieceId', 'profile', 'workspacePath'] as const;
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
  const instructionRef = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    void loadProfiles();
  }, [loadProfiles]);

  useEffect(() => {
    instructionRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitting(true);
    setErrors({});
    setFormError(null);
    const input: OpInput<'createTask'> = { instruction };
    if (title !== '') input.title = title;
    if (pieceId !== '') input.pieceId = pieceId;
    if (profile !== '') input.profile = profile;
    if (workspacePath !== '') input.workspacePath = workspacePath;
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
    <div className="overlay">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={headingId}>
        <form onSubmit={submit} data-testid="create-task-form" noValidate>
          <h2 id={headingId}>New task</h2>
          <label className="field">
            <span>Instruction</span>
            <textarea
              ref={instructionRef}
              rows={5}
              value={instruction}
              onChange={(e) => setInstruction(e.target.value)}
              placeholder="What should the agent do?"
              data-testid="field-instruction"
              {...fieldProps('instruction')}
            />
            {fieldError('instruction')}
          </label>
          <label className="field">
            <span>
              Title <em>optional</em>
            </span>
            <input
              value={title}
              onChange={(e) => setTitle(e.target.value)}
              placeholder="Taken from the instruction when empty"
              data-testid="field-title"
              {...fieldProps('title')}
            />
            {fieldError('title')}
          </label>
          <label className="field">
            <span>Piece</span>
            <select
              value={pieceId}
              onChange={(e) => setPieceId(e.target.value)}
              data-testid="field-piece"
              {...fieldProps('pieceId')}
            >
              <option value="">Default piece</option>
              {pieces.map((p) => (
                <option key={p.id} value={p.id} title={p.description}>
                  {p.name}
                  {p.source === 'workspace' ? ' (workspace)' : ''}
                </option>
              ))}
            </select>
            {piecesLoad === 'error' ? <p className="field-hint">Pieces could not be loaded.</p> : null}
            {fieldError('pieceId')}
          </label>
          <label className="field">
            <span>LLM profile</span>
            <select
              value={profile}
              onChange={(e) => setProfile(e.target.value)}
              data-testid="field-profile"
              {...fieldProps('profile')}
            >
              <option value="">Default profile{defaultName ? ` (${defaultName})` : ''}</option>
              {profiles.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name} — {p.model}
                </option>
              ))}
            </select>
            {profiles.length === 0 ? (
              <p className="field-hint">No LLM profile yet: add one in Settings, or the task waits in the queue.</p>
            ) : null}
            {fieldError('profile')}
          </label>
          <label className="field">
            <span>
              Workspace folder <em>optional</em>
            </span>
            <input
              value={workspacePath}
              onChange={(e) => setWorkspacePath(e.target.value)}
              placeholder="Absolute path; the default workspace when empty"
              data-testid="field-workspace"
              {...fieldProps('workspacePath')}
            />
            {fieldError('workspacePath')}
          </label>
          {formError ? (
            <p className="notice notice-error" data-testid="create-task-error">
              {formError}
            </p>
          ) : null}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={submitting} data-testid="create-submit">
              {submitting ? 'Creating…' : 'Create task'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
