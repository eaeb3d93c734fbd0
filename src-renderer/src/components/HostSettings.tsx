// Settings → Hosts: which host this window shows, and (inside Electron) the form to show another. A page served by a
// host (the browser build) says which host serves it and that switching is the desktop app's.
import { useEffect } from 'react';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { HostForm } from './HostForm';
import { ErrorNotice } from './OutcomeNotice';

export function HostSettings() {
  const t = useT();
  const host = useAppStore((s) => s.host);
  const error = useAppStore((s) => s.hostError);
  const canChoose = useAppStore((s) => s.canChooseHost);
  const load = useAppStore((s) => s.loadHost);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section data-testid="host-settings">
      <h3 className="settings-section">{t('settings.hosts')}</h3>
      <ErrorNotice error={error} testId="host-load-error" />
      {canChoose ? (
        <>
          <p className="field-hint">{t('hosts.about')}</p>
          {host ? (
            <p className="host-current" data-testid="host-current" data-kind={host.kind}>
              {host.kind === 'local'
                ? t('hosts.showing', { name: t('hosts.thisComputer') })
                : t('hosts.showingRemote', { name: host.name, address: host.address })}
            </p>
          ) : null}
          <HostForm />
        </>
      ) : host ? (
        <p className="host-current" data-testid="host-served">
          {t('hosts.served', { name: host.name })}
        </p>
      ) : null}
    </section>
  );
}

/** The header's mark of the host the window shows (none for this computer's own core). */
export function HostBadge() {
  const t = useT();
  const host = useAppStore((s) => s.host);
  const load = useAppStore((s) => s.loadHost);
  useEffect(() => {
    void load();
  }, [load]);
  if (!host || host.kind === 'local') return null;
  return (
    <span className="host-badge" title={host.address} data-testid="host-badge">
      {t('hosts.badge', { name: host.name })}
    </span>
  );
}
