// The chips under the new-task composer's text: the folder (the default one named, the recent ones, another folder by
// path or, inside Electron, the OS picker), the piece (one entry per piece, the built-in ones in the UI's words) and
// the model (the LLM profile). Each is a native select, so keyboard and screen readers work as everywhere; a chip
// left as it is sends nothing, and the server's default (or a space's pinned piece) applies.
import { type ReactNode, useEffect, useState } from 'react';
import type { PieceSummary } from '../../../src-shared/entities';
import { useT } from '../hooks/useT';
import type { MessageKey } from '../i18n';
import { en } from '../i18n/en';
import { useAppStore } from '../store/store';

/** Not a path (a folder's path is absolute): the entry that asks for another folder. */
export const OTHER_FOLDER = '(other)';
const DEFAULT_PIECE = 'default';

/** The last segment of a path, for a chip; the whole path is its tooltip. */
export const folderName = (folder: string) => folder.split(/[\\/]/).filter(Boolean).at(-1) ?? folder;

interface FolderProps {
  /** '' → the default folder. */
  value: string;
  onChange(value: string): void;
  onPickError(message: string): void;
  invalid: boolean;
  error: ReactNode;
}

export function FolderChip({ value, onChange, onPickError, invalid, error }: FolderProps) {
  const t = useT();
  const recent = useAppStore((s) => s.recentFolders);
  const defaultFolder = useAppStore((s) => s.defaultFolder);
  const loadRecent = useAppStore((s) => s.loadRecentFolders);
  const canPick = useAppStore((s) => s.canPickFolder);
  const pickFolder = useAppStore((s) => s.pickFolder);
  const [typing, setTyping] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);

  useEffect(() => {
    void loadRecent();
  }, [loadRecent]);

  const listed = [...new Set([...(picked ? [picked] : []), ...recent.map((f) => f.path)])].filter(
    (p) => p !== defaultFolder,
  );

  async function choose(next: string) {
    if (next !== OTHER_FOLDER) {
      setTyping(false);
      return onChange(next);
    }
    if (!canPick) {
      setTyping(true);
      return onChange('');
    }
    const outcome = await pickFolder(value || defaultFolder || recent[0]?.path);
    if (!outcome.ok) onPickError(t('create.pickFailed', { message: outcome.error.message }));
    else if (outcome.path) {
      setPicked(outcome.path);
      onChange(outcome.path);
    }
  }

  return (
    <div className="chip-field">
      <label className="chip" title={value || defaultFolder || undefined}>
        <span className="chip-label">{t('newTask.folder.label')}</span>
        <select
          className="chip-select"
          value={typing ? OTHER_FOLDER : value}
          onChange={(e) => void choose(e.target.value)}
          aria-invalid={invalid || undefined}
          data-testid="field-folder"
        >
          <option value="">
            {defaultFolder
              ? t('newTask.folder.default', { name: folderName(defaultFolder) })
              : t('newTask.folder.scratch')}
          </option>
          {listed.map((p) => (
            <option key={p} value={p} title={p}>
              {folderName(p)}
            </option>
          ))}
          <option value={OTHER_FOLDER}>{t('newTask.folder.other')}</option>
        </select>
      </label>
      {typing ? (
        <input
          className="chip-path"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={t('newTask.folder.pathPlaceholder')}
          aria-label={t('newTask.folder.path')}
          aria-invalid={invalid || undefined}
          // biome-ignore lint/a11y/noAutofocus: shown because the person chose "Another folder…" to type it
          autoFocus
          data-testid="field-workspace"
        />
      ) : null}
      {error}
    </div>
  );
}

/** A piece in the person's words: the built-in ones translated, a folder's own marked as such. */
export function pieceLabel(piece: Pick<PieceSummary, 'id' | 'name' | 'source'>, t: ReturnType<typeof useT>): string {
  const key = `newTask.piece.builtin.${piece.id}`;
  if (piece.source === 'builtin' && key in en) return t(key as MessageKey);
  return piece.source === 'workspace' ? t('newTask.piece.workspace', { name: piece.name }) : piece.name;
}

interface SelectProps {
  /** null: left as it is (nothing sent). */
  value: string | null;
  onChange(value: string): void;
  invalid: boolean;
  error: ReactNode;
}

export function PieceChip({ value, onChange, invalid, error }: SelectProps) {
  const t = useT();
  const pieces = useAppStore((s) => s.pieces);
  const piecesLoad = useAppStore((s) => s.piecesLoad);
  // A folder's piece may share a built-in's id; the list shows each id once, as the server resolves it.
  const unique = pieces.filter((p, i) => pieces.findIndex((q) => q.id === p.id) === i);
  const shown = value ?? (unique.some((p) => p.id === DEFAULT_PIECE) ? DEFAULT_PIECE : (unique[0]?.id ?? ''));
  const description = unique.find((p) => p.id === shown)?.description;
  return (
    <div className="chip-field">
      <label className="chip" title={description}>
        <span className="chip-label">{t('newTask.piece.label')}</span>
        <select
          className="chip-select"
          value={shown}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={invalid || undefined}
          data-testid="field-piece"
        >
          {unique.length === 0 ? <option value="">{t('newTask.piece.builtin.default')}</option> : null}
          {unique.map((p) => (
            <option key={p.id} value={p.id} title={p.description}>
              {pieceLabel(p, t)}
            </option>
          ))}
        </select>
      </label>
      {piecesLoad === 'error' ? <p className="field-hint">{t('create.piecesError')}</p> : null}
      {error}
    </div>
  );
}

export function ModelChip({ value, onChange, invalid, error }: SelectProps) {
  const t = useT();
  const profiles = useAppStore((s) => s.profiles);
  if (profiles.length === 0) return <p className="field-hint chip-hint">{t('newTask.model.none')}</p>;
  const shown = value ?? profiles.find((p) => p.isDefault)?.name ?? profiles[0]?.name ?? '';
  return (
    <div className="chip-field">
      <label className="chip">
        <span className="chip-label">{t('newTask.model.label')}</span>
        <select
          className="chip-select"
          value={shown}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={invalid || undefined}
          data-testid="field-profile"
        >
          {profiles.map((p) => (
            <option key={p.name} value={p.name}>
              {t(p.isDefault ? 'composer.profile.default' : 'composer.profile.option', {
                name: p.name,
                model: p.model,
              })}
            </option>
          ))}
        </select>
      </label>
      {error}
    </div>
  );
}
