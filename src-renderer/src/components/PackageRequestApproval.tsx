// The approval card of one package request: manager, name, version and the agent's reason, with Approve / Deny
// (P7.01, P7.08–P7.10). An approved package is installed for this task only. A refused decision shows on the card.
// The keyboard shortcuts (A / D on the focused card) press its buttons: see decideFocusedCard.
import type { PackageRequest } from '../../../src-shared/entities';
import { ariaKeyShortcuts } from '../hooks/shortcuts';
import { useCardAction } from '../hooks/useCardAction';
import { IS_MAC } from '../hooks/useShortcuts';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';

export function PackageRequestApproval({ request }: { request: PackageRequest }) {
  const decide = useAppStore((s) => s.decidePackageRequest);
  const { busy, error, run } = useCardAction();
  const t = useT();

  const choose = (decision: 'approve' | 'deny') =>
    run(() => decide({ taskId: request.taskId, requestId: request.id, decision }));

  return (
    <section
      className="approval-card"
      tabIndex={-1}
      data-approval-card
      data-testid="package-request"
      data-request-id={request.id}
      aria-label={t('approval.packageLabel', { name: request.name })}
    >
      <header className="approval-header">
        <span className="approval-kind">{t('approval.needed')}</span>
        <span>{t('approval.packageWants')}</span>
      </header>
      <dl className="approval-fields">
        <dt>{t('approval.manager')}</dt>
        <dd data-testid="package-manager">{request.manager}</dd>
        <dt>{t('approval.package')}</dt>
        <dd>
          <code data-testid="package-name">{request.name}</code>
        </dd>
        <dt>{t('approval.version')}</dt>
        <dd data-testid="package-version">{request.version ?? t('approval.latest')}</dd>
        <dt>{t('approval.reason')}</dt>
        <dd className="approval-reason" data-testid="package-reason">
          {request.reason}
        </dd>
      </dl>
      <div className="approval-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => void choose('approve')}
          aria-keyshortcuts={ariaKeyShortcuts('approveOnce', IS_MAC)}
          data-card-action="approve"
          data-testid="package-approve"
        >
          {t('approval.approve')}
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={busy}
          onClick={() => void choose('deny')}
          aria-keyshortcuts={ariaKeyShortcuts('deny', IS_MAC)}
          data-card-action="deny"
          data-testid="package-deny"
        >
          {t('approval.deny')}
        </button>
      </div>
      {error ? (
        <p className="text-error approval-error" role="alert" data-testid="request-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
