// The frame both approval cards share (ToolRequestApproval, PackageRequestApproval): a focusable section the keyboard
// shortcuts find, its "Approval needed" header, the card's fields and buttons, and a refused decision's error.
import type { ReactNode } from 'react';
import { ariaKeyShortcuts } from '../hooks/shortcuts';
import { IS_MAC } from '../hooks/useShortcuts';
import { useT } from '../i18n';

interface ApprovalCardProps {
  testId: string;
  requestId: string;
  label: string;
  /** What is asked for, after "Approval needed". */
  wants: ReactNode;
  /** The tool's name, for the tool request card. */
  tool?: string;
  error: string | null;
  children: ReactNode;
  actions: ReactNode;
}

export function ApprovalCard({ testId, requestId, label, wants, tool, error, children, actions }: ApprovalCardProps) {
  const t = useT();
  return (
    <section
      className="approval-card"
      tabIndex={-1}
      data-approval-card
      data-testid={testId}
      data-request-id={requestId}
      data-tool={tool}
      aria-label={label}
    >
      <header className="approval-header">
        <span className="approval-kind">{t('approval.needed')}</span>
        <span>{wants}</span>
      </header>
      {children}
      <div className="approval-actions">{actions}</div>
      {error ? (
        <p className="text-error approval-error" role="alert" data-testid="request-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}

interface DecisionButtonProps {
  /** The card action the A / D shortcuts press (see decideFocusedCard). */
  action: 'approve' | 'deny';
  busy: boolean;
  onClick(): void;
  testId: string;
  children: ReactNode;
}

export function DecisionButton({ action, busy, onClick, testId, children }: DecisionButtonProps) {
  return (
    <button
      type="button"
      className={`button ${action === 'approve' ? 'button-primary' : 'button-danger'}`}
      disabled={busy}
      onClick={onClick}
      aria-keyshortcuts={ariaKeyShortcuts(action === 'approve' ? 'approveOnce' : 'deny', IS_MAC)}
      data-card-action={action}
      data-testid={testId}
    >
      {children}
    </button>
  );
}

/** The reason field's text as a decision sends it: none when empty. */
export const reasonOf = (text: string) => (text.trim() === '' ? {} : { reason: text.trim() });

/** The person's reason for a denial, told to the model in the call's result: an empty field gives none. */
export function DenyReason({ value, onChange, busy }: { value: string; onChange(v: string): void; busy: boolean }) {
  const t = useT();
  return (
    <input
      type="text"
      className="approval-deny-reason"
      value={value}
      maxLength={2000}
      disabled={busy}
      placeholder={t('approval.denyReason')}
      aria-label={t('approval.denyReason')}
      onChange={(e) => onChange(e.target.value)}
      data-testid="deny-reason"
    />
  );
}
