// Settings, one section after another: the language and theme, OS notifications, checkpoints, a workspace's Tool
// Policy, its MCP servers, the Auto Prompter's rules, the LLM profiles, and where the data lives. Escape closes it.
import { useEffect, useId } from 'react';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';
import { AppearanceSettings } from './AppearanceSettings';
import { AutoPrompterSettings } from './AutoPrompterSettings';
import { CheckpointSettingsSection } from './CheckpointSettingsSection';
import { DataLocation } from './DataLocation';
import { McpSettings } from './McpSettings';
import { NotificationSettings } from './NotificationSettings';
import { ProfileSettings } from './ProfileSettings';
import { ToolPolicyEditor } from './ToolPolicyEditor';

export function SettingsDialog({ onClose }: { onClose(): void }) {
  const loadProfiles = useAppStore((s) => s.loadProfiles);
  const loadAppSettings = useAppStore((s) => s.loadAppSettings);
  const headingId = useId();
  const ref = useModalDialog(onClose);
  const t = useT();

  useEffect(() => {
    void loadProfiles();
    void loadAppSettings();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [loadProfiles, loadAppSettings, onClose]);

  return (
    <dialog ref={ref} className="modal" aria-labelledby={headingId}>
      <div className="dialog dialog-wide">
        <div data-testid="settings-dialog">
          <h2 id={headingId}>{t('settings.title')}</h2>
          <AppearanceSettings />
          <NotificationSettings />
          <CheckpointSettingsSection />
          <ToolPolicyEditor />
          <McpSettings />
          <AutoPrompterSettings />
          <ProfileSettings onClose={onClose} />
          <DataLocation />
        </div>
      </div>
    </dialog>
  );
}
