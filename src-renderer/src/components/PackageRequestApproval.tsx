// The approval card of one package request: manager, name, version and the agent's reason, with Approve / Deny
// (P7.01, P7.08–P7.10). An approved package is installed for this task only. A refused decision shows on the card.
// The keyboard shortcuts (A / D on the focused card) press its buttons: see decideFocusedCard. The model wrote every
// field: they show through the untrusted-text renderer, hidden characters flagged.
import { useMemo, useState } from 'react';
import type { PackageRequest } from '../../../src-shared/entities';
import { renderUntrusted } from '../../../src-shared/untrusted-text';
import { useCardAction } from '../hooks/useCardAction';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ApprovalCard, DecisionButton, DenyReason, reasonOf } from './ApprovalCard';
import { HiddenCharsFlag, UntrustedLine, UntrustedText } from './UntrustedText';

export function PackageRequestApproval({ request }: { request: PackageRequest }) {
  const decide = useAppStore((s) => s.decidePackageRequest);
  const { busy, error, run } = useCardAction();
  const [reason, setReason] = useState('');
  const t = useT();
  const { manager, name, version, reason: why } = request;
  const hidden = useMemo(
    () =>
      renderUntrusted(`${manager}\n${name}\n${version ?? ''}`, { mode: 'command', multiline: false }).hidden +
      renderUntrusted(why).hidden,
    [manager, name, version, why],
  );

  const choose = (decision: 'approve' | 'deny') =>
    run(() =>
      decide({
        taskId: request.taskId,
        requestId: request.id,
        decision,
        ...(decision === 'deny' ? reasonOf(reason) : {}),
      }),
    );

  return (
    <ApprovalCard
      testId="package-request"
      requestId={request.id}
      label={t('approval.packageLabel', { name: request.name })}
      wants={t('approval.packageWants')}
      error={error}
      notices={<HiddenCharsFlag count={hidden} />}
      actions={
        <>
          <DecisionButton action="approve" busy={busy} onClick={() => void choose('approve')} testId="package-approve">
            {t('approval.approve')}
          </DecisionButton>
          <DenyReason value={reason} onChange={setReason} busy={busy} />
          <DecisionButton action="deny" busy={busy} onClick={() => void choose('deny')} testId="package-deny">
            {t('approval.deny')}
          </DecisionButton>
        </>
      }
    >
      <dl className="approval-fields">
        <dt>{t('approval.manager')}</dt>
        <dd data-testid="package-manager">
          <UntrustedLine text={manager} />
        </dd>
        <dt>{t('approval.package')}</dt>
        <dd>
          <code data-testid="package-name">
            <UntrustedText text={name} mode="command" multiline={false} />
          </code>
        </dd>
        <dt>{t('approval.version')}</dt>
        <dd data-testid="package-version">
          {version === null ? t('approval.latest') : <UntrustedText text={version} mode="command" multiline={false} />}
        </dd>
        <dt>{t('approval.reason')}</dt>
        <dd className="approval-reason" data-testid="package-reason">
          <UntrustedText text={why} />
        </dd>
      </dl>
    </ApprovalCard>
  );
}
