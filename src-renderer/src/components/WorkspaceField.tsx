// The workspace folder of the CreateTaskDialog: typed, chosen from the folders of recent tasks (newest first), or
// picked with the OS folder dialog, which exists inside Electron only (over HTTP the button is not shown).
import { type ReactNode, useEffect, useId, useState } from 'react';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';

interface Props {
  value: string;
  onChange(value: string): void;
  /** A failed pick: shown as the field's error. */
  onPickError(message: string): void;
  /** aria-invalid / aria-describedby from the dialog, which owns the field errors. */
  inputProps: Record<string, unknown>;
  error: ReactNode;
}

export function WorkspaceField({ value, onChange, onPickError, inputProps, error }: Props) {
  const recent = useAppStore((s) => s.recentFolders);
  const loadRecent = useAppStore((s) => s.loadRecentFolders);
  const canPick = useAppStore((s) => s.canPickFolder);
  const pickFolder = useAppStore((s) => s.pickFolder);
  const [picking, setPicking] = useState(false);
  const inputId = useId();
  const t = useT();

  useEffect(() => {
    void loadRecent();
  }, [loadRecent]);

  async function pick() {
    setPicking(true);
    const outcome = await pickFolder(value || recent[0]?.path);
    setPicking(false);
    if (!outcome.ok) onPickError(t('create.pickFailed', { message: outcome.error.message }));
    else if (outcome.path) onChange(outcome.path);
  }

  return (
    <div className="field">
      <span>
        <label htmlFor={inputId}>{t('create.workspace')}</label> <em>{t('create.optional')}</em>
      </span>
      <div className="folder-row">
        <input
          id={inputId}
          className="folder-input"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={t('create.workspacePlaceholder')}
          data-testid="field-workspace"
          {...inputProps}
        />
        {canPick ? (
          <button
            type="button"
            className="button"
            onClick={() => void pick()}
            disabled={picking}
            title={t('create.chooseFolderTitle')}
            data-testid="choose-folder"
          >
            {t('create.chooseFolder')}
          </button>
        ) : null}
      </div>
      {recent.length > 0 ? (
        <select
          className="folder-recent"
          value=""
          onChange={(e) => {
            if (e.target.value) onChange(e.target.value);
          }}
          aria-label={t('create.recentFoldersLabel')}
          data-testid="field-workspace-recent"
        >
          <option value="">{t('create.recentFolders')}</option>
          {recent.map((f) => (
            <option key={f.path} value={f.path} title={f.path}>
              {f.path}
            </option>
          ))}
        </select>
      ) : null}
      {error}
    </div>
  );
}
