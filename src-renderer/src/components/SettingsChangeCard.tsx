// The card of one settings file changed outside MAESTRO (`.maestro/policy.json`, `mcp.json`, `auto-prompter.json`,
// a piece): what is in force meanwhile, the change as a diff (accepted → current), and Accept / Reject — the same
// frame and shortcuts as a tool request's card. Accepted, the file applies from the next job; rejected, it goes back
// to the accepted version (or away when none was accepted). A file never accepted holds the task's job until it is
// decided (`holdsTask`), and the card says so.
import type { SettingsChangeView } from '../../../src-shared/contract';
import { useCardAction } from '../hooks/useCardAction';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ApprovalCard, DecisionButton } from './ApprovalCard';
import { UntrustedText } from './UntrustedText';

export function SettingsChangeCard({ change, holdsTask = false }: { change: SettingsChangeView; holdsTask?: boolean }) {
  const decide = useAppStore((s) => s.decideSettingsChange);
  const { busy, error, run } = useCardAction();
  const t = useT();
  const choose = (decision: 'accept' | 'reject') => run(() => decide(change, decision));

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
      <pre className="approval-summary" data-testid="settings-change-diff">
        <UntrustedText text={change.diff} />
      </pre>
    </ApprovalCard>
  );
}
