// Settings: its sections one after another in a pane that scrolls — the language and theme, OS notifications,
// checkpoints, a workspace's Tool Policy, its MCP servers, the Auto Prompter's rules, the LLM profiles, the lessons, the host the window
// shows, where the data lives — with a side list that jumps to each (the section focused) and marks the one in view. Opened at a section
// (openSettingsAt: a failed model call's Edit profile, a link naming a section), it starts there; opened at a
// profile, the profile's form scrolls itself into view (ProfileForm). Escape closes it.
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useModalDialog } from '../hooks/useModalDialog';
import { useT } from '../hooks/useT';
import type { MessageKey } from '../i18n';
import { SETTINGS_SECTIONS, type SettingsSection } from '../store/settings-slice';
import { useAppStore } from '../store/store';
import { AppearanceSettings } from './AppearanceSettings';
import { AutoPrompterSettings } from './AutoPrompterSettings';
import { CheckpointSettingsSection } from './CheckpointSettingsSection';
import { DataLocation } from './DataLocation';
import { HostSettings } from './HostSettings';
import { LessonSettings } from './LessonSettings';
import { McpSettings } from './McpSettings';
import { NotificationSettings } from './NotificationSettings';
import { ProfileSettings } from './ProfileSettings';
import { ToolPolicyEditor } from './ToolPolicyEditor';

const LABELS: Record<SettingsSection, MessageKey> = {
  appearance: 'settings.appearance',
  notifications: 'settings.notifications',
  checkpoints: 'settings.checkpoints',
  toolPolicy: 'settings.toolPolicy',
  mcp: 'settings.mcp',
  autoPrompter: 'settings.autoPrompter',
  profiles: 'settings.profiles',
  lessons: 'settings.lessons',
  hosts: 'settings.hosts',
  data: 'settings.data',
};

/** A section's heading counts as in view this close to the pane's top (px). */
const IN_VIEW_SLACK = 24;

export function SettingsDialog({ onClose }: { onClose(): void }) {
  const loadProfiles = useAppStore((s) => s.loadProfiles);
  const loadAppSettings = useAppStore((s) => s.loadAppSettings);
  const at = useAppStore((s) => s.settingsAt);
  const headingId = useId();
  const ref = useModalDialog(onClose);
  const t = useT();
  const pane = useRef<HTMLDivElement>(null);
  const sections = useRef(new Map<SettingsSection, HTMLElement>());
  const [current, setCurrent] = useState<SettingsSection>(at?.section ?? 'appearance');

  useEffect(() => {
    void loadProfiles();
    void loadAppSettings();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [loadProfiles, loadAppSettings, onClose]);

  const show = useCallback((section: SettingsSection) => {
    const element = sections.current.get(section);
    if (!element) return;
    element.scrollIntoView({ block: 'start' });
    element.focus({ preventScroll: true });
    setCurrent(section);
  }, []);

  // Opened at a section: shown and focused. At a profile, its form does that itself once the profiles are loaded.
  useEffect(() => {
    if (at && !at.profile) show(at.section);
  }, [at, show]);

  const onScroll = useCallback(() => {
    const top = pane.current?.getBoundingClientRect().top;
    if (top === undefined) return;
    let inView: SettingsSection = SETTINGS_SECTIONS[0];
    for (const section of SETTINGS_SECTIONS) {
      const element = sections.current.get(section);
      if (element && element.getBoundingClientRect().top - top <= IN_VIEW_SLACK) inView = section;
    }
    setCurrent(inView);
  }, []);

  const place = (section: SettingsSection) => (element: HTMLElement | null) => {
    if (element) sections.current.set(section, element);
    else sections.current.delete(section);
  };
  const section = (id: SettingsSection, content: ReactNode) => (
    <section
      ref={place(id)}
      className="settings-pane-section"
      tabIndex={-1}
      aria-label={t(LABELS[id])}
      data-testid="settings-section"
      data-section={id}
    >
      {content}
    </section>
  );

  return (
    <dialog ref={ref} className="modal" aria-labelledby={headingId}>
      <div className="dialog dialog-wide settings-dialog">
        <div className="settings-frame" data-testid="settings-dialog">
          <header className="settings-top">
            <h2 id={headingId}>{t('settings.title')}</h2>
            <button type="button" className="button button-primary" onClick={onClose} data-testid="settings-close">
              {t('settings.done')}
            </button>
          </header>
          <nav className="settings-nav" aria-label={t('settings.sections')} data-testid="settings-nav">
            <ul>
              {SETTINGS_SECTIONS.map((id) => (
                <li key={id}>
                  <button
                    type="button"
                    className="settings-nav-item"
                    aria-current={current === id ? 'true' : undefined}
                    onClick={() => show(id)}
                    data-testid="settings-nav-item"
                    data-section={id}
                  >
                    {t(LABELS[id])}
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          <div className="settings-pane" ref={pane} onScroll={onScroll} data-testid="settings-pane">
            {section('appearance', <AppearanceSettings />)}
            {section('notifications', <NotificationSettings />)}
            {section('checkpoints', <CheckpointSettingsSection />)}
            {section('toolPolicy', <ToolPolicyEditor />)}
            {section('mcp', <McpSettings />)}
            {section('autoPrompter', <AutoPrompterSettings />)}
            {section('profiles', <ProfileSettings onClose={onClose} />)}
            {section('lessons', <LessonSettings />)}
            {section('hosts', <HostSettings />)}
            {section('data', <DataLocation />)}
          </div>
        </div>
      </div>
    </dialog>
  );
}
