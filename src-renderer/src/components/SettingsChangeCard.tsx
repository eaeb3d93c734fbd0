// The card of one settings file changed outside MAESTRO (`.maestro/policy.json`, `mcp.json`, `auto-prompter.json`,
// a piece): what is in force meanwhile, the change as a diff (accepted → current), and Accept / Reject — the same
// frame and shortcuts as a tool request's card. Accepted, the file applies from the next job; rejected, it goes back
// to the accepted version (or away when none was accepted). A file never accepted holds the task's job until it is
// decided (`holdsTask`), and the card says so. A TAKT folder brings hundreds of files: then the diffs are folded
// (`folded`) and SettingsAcceptAll accepts every file as shown in one step.
import type { SettingsChangeView } from '../../../src-shared/contract';
import { useCardAction } from '../hooks/useCardAction';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ApprovalCard, DecisionButton } from './ApprovalCard';
import { UntrustedText } from './UntrustedText';

/** From this many cards on, each diff is folded under its file so the list stays readable. */
export const FOLD_DIFFS_FROM = 4;

export function SettingsChangeCard({
  change,
  holdsTask = false,
  folded = false,
}: {
  change: SettingsChangeView;
  holdsTask?: boolean;
  folded?: boolean;
}) {
  const decide = useAppStore((s) => s.decideSettingsChange);
  const { busy, error, run } = useCardAction();
  const t = useT();
  const choose = (decision: 'accept' | 'reject') => run(() => decide(change, decision));
  const diff = (
    <pre className="approval-summary" data-testid="settings-change-diff">
      <UntrustedText text={change.diff} />
    </pre>
  );

  return (
    <ApprovalCard
      testId="settings-change"
      requestId={change.file}
      label={t('settingsChange.label', { file: change.file })}
      wants={
        <>
          <code data-testid="settings-change-file">{change.file}</code> {t('settingsChange.changed')}
        </>
      }
      error={error}
      actions={
        <>
          <DecisionButton action="approve" busy={busy} onClick={() => void choose('accept')} testId="settings-accept">
            {t('settingsChange.accept')}
          </DecisionButton>
          <DecisionButton action="deny" busy={busy} onClick={() => void choose('reject')} testId="settings-reject">
            {change.hasAccepted ? t('settingsChange.reject') : t('settingsChange.rejectNew')}
          </DecisionButton>
        </>
      }
    >
      <p className="approval-reason" data-testid="settings-change-in-force">
        {change.hasAccepted
          ? t('settingsChange.inForceAccepted')
          : holdsTask
            ? t('settingsChange.inForceWaiting')
            : t('settingsChange.inForceDefault')}
        {change.currentSha256 === null ? ` ${t('settingsChange.deleted')}` : ''}
      </p>
      {folded ? (
        <details data-testid="settings-change-fold">
          <summary>{t('settingsChange.showDiff')}</summary>
          {diff}
        </details>
      ) : (
        diff
      )}
    </ApprovalCard>
  );
}

/**
 * Accept all (N): every file as its card shows it, in one step. Main accepts only those still as shown; the others
 * come back as cards (their content now) and are named here, so nothing is accepted unseen.
 */
export function SettingsAcceptAll({ changes }: { changes: readonly SettingsChangeView[] }) {
  const acceptAll = useAppStore((s) => s.acceptAllSettingsChanges);
  const relisted = useAppStore((s) => s.settingsChangesRelisted);
  const { busy, error, run } = useCardAction();
  const t = useT();
  return (
    <div className="approval-actions" data-testid="settings-accept-all-bar">
      <button
        type="button"
        className="button button-primary"
        disabled={busy}
        onClick={() => void run(() => acceptAll(changes))}
        data-testid="settings-accept-all"
      >
        {t('settingsChange.acceptAll', { count: changes.length })}
      </button>
      {relisted.length > 0 ? (
        <p className="approval-reason" role="status" data-testid="settings-relisted">
          {t('settingsChange.relisted', { count: relisted.length })}
        </p>
      ) : null}
      {error ? (
        <p className="text-error approval-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
