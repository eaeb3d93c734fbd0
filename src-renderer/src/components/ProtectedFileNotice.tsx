// The warning on the card of a write to a file that runs code outside the sandbox (`.git/config`, `.envrc`, …): which
// file (as the untrusted-text renderer shows it), that the person's own tools run it with their full access, why, and
// that an approval covers this write only.
import type { ProtectedFileDisplay } from '../../../src-shared/entities';
import { plainUntrusted } from '../../../src-shared/untrusted-text';
import { useT } from '../hooks/useT';

export function ProtectedFileNotice({ display }: { display: ProtectedFileDisplay }) {
  const t = useT();
  return (
    <div className="approval-warning" data-testid="tool-request-protected" data-path={display.path}>
      <p>
        <strong>{t('edit.protected.title', { path: plainUntrusted(display.path, { multiline: false }) })}</strong>
      </p>
      <p>{t('edit.protected.what', { reason: display.reason })}</p>
      <p>{t('edit.protected.approve')}</p>
    </div>
  );
}
