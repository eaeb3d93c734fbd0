// The workspace a Settings section is about: a space's folder, or the default workspace when it is not a space yet.
// Sections keyed by a workspace (the Tool Policy, the MCP servers) choose it with this select.
import { useEffect } from 'react';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';

interface Props {
  /** The workspace shown, or null before one is chosen. */
  chosen: string | null;
  onChoose(workspacePath: string): void;
  /** The select's test id, and the hint's when there is no workspace to choose. */
  testId: string;
  noneTestId: string;
}

export function SettingsWorkspace({ chosen, onChoose, testId, noneTestId }: Props) {
  const spaces = useAppStore((s) => s.policySpaces);
  const defaultWorkspace = useAppStore((s) => s.appSettings?.defaultWorkspace ?? null);
  const loadSpaces = useAppStore((s) => s.loadPolicySpaces);
  const t = useT();

  useEffect(() => {
    void loadSpaces();
  }, [loadSpaces]);

  const showDefault = defaultWorkspace !== null && !spaces.some((s) => s.folder === defaultWorkspace);
  if (!showDefault && spaces.length === 0) {
    return (
      <p className="field-hint" data-testid={noneTestId}>
        {t('settings.toolPolicy.noWorkspaces')}
      </p>
    );
  }
  return (
    <label className="field">
      <span>{t('settings.toolPolicy.workspace')}</span>
      <select value={chosen ?? ''} onChange={(e) => e.target.value && onChoose(e.target.value)} data-testid={testId}>
        <option value="">{t('settings.toolPolicy.choose')}</option>
        {showDefault ? (
          <option value={defaultWorkspace}>
            {t('settings.toolPolicy.defaultWorkspace', { folder: defaultWorkspace })}
          </option>
        ) : null}
        {spaces.map((s) => (
          <option key={s.id} value={s.folder}>
            {s.name} — {s.folder}
          </option>
        ))}
      </select>
    </label>
  );
}
