// Inside Electron: a bar across the window while the core's process is being started again after it stopped
// unasked (a crash), or while the remote host it shows is being reached again, saying that nothing acknowledged is lost and that actions wait until it is back. Over HTTP
// there is no shell and nothing shows.
import { useEffect, useState } from 'react';
import type { CoreStatus } from '../../../src-shared/preload-api';
import type { ShellLink } from '../api/client';
import { useT } from '../hooks/useT';

export function CoreNotice({ shell }: { shell: ShellLink | undefined }) {
  const t = useT();
  const [status, setStatus] = useState<CoreStatus>({ state: 'running' });
  useEffect(() => shell?.onCoreStatus(setStatus), [shell]);
  if (status.state === 'running') return null;
  const seconds = Math.max(1, Math.ceil(status.inMs / 1000));
  if (status.host) {
    return (
      <div className="core-notice" role="alert" data-testid="core-notice">
        <strong>{t('hosts.reconnecting.title', { host: status.host })}</strong>{' '}
        {t('hosts.reconnecting.body', { seconds })}
      </div>
    );
  }
  return (
    <div className="core-notice" role="alert" data-testid="core-notice">
      <strong>{t('core.restarting.title')}</strong> {t('core.restarting.body', { seconds, attempt: status.attempt })}
    </div>
  );
}
