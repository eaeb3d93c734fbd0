// The frame both approval cards share (ToolRequestApproval, PackageRequestApproval): a focusable section the keyboard
// shortcuts find, its "Approval needed" header, the card's warnings, fields and buttons, and a refused decision's
// error. The buttons stay in sight while the card scrolls (approvals.css), and a card taller than the space it has
// says so, so nothing it approves is out of sight unannounced.
import { type ReactNode, useRef } from 'react';
import { ariaKeyShortcuts } from '../hooks/shortcuts';
import { useLongerThanShown } from '../hooks/useLongerThanShown';
import { IS_MAC } from '../hooks/useShortcuts';
import { useT } from '../hooks/useT';

interface ApprovalCardProps {
  testId: string;
  requestId: string;
  label: string;
  /** What is asked for, after "Approval needed". */
  wants: ReactNode;
  /** The tool's name, for the tool request card. */
  tool?: string;
  error: string | null;
  /** Warnings about what the card shows (hidden characters, a command's many lines), in its header, always in sight. */
  notices?: ReactNode;
  children: ReactNode;
  actions: ReactNode;
}

export function ApprovalCard(props: ApprovalCardProps) {
  const { testId, requestId, label, wants, tool, error, notices, children, actions } = props;
  const t = useT();
  const ref = useRef<HTMLElement>(null);
  const longer = useLongerThanShown(ref);
  return (
    <section
      ref={ref}
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
        {notices ? <div className="approval-notices">{notices}</div> : null}
        {longer ? (
          <span className="approval-longer" data-testid="approval-longer">
            {t('approval.longer')}
          </span>
        ) : null}
      </header>
      {children}
      <div className="approval-actions" data-testid="approval-actions">
        {actions}
      </div>
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
