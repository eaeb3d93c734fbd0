// BrowserStepCard: shown while the latest job waits on a browser step (browser_handoff, P4.41). It says what to do,
// opens the page after the link confirmation showed where it goes (the model chose the URL; link-guard.ts), and "I'm done" sends the reply that wakes the job
// (P1.12). Any comment typed in the composer wakes it the same way.
import type { Comment } from '../../../src-shared/entities';
import { useCardAction } from '../hooks/useCardAction';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { noticeText } from './notice-text';

interface Props {
  taskId: string;
  /** The system comment the job parked with: the instruction and the page. */
  step: Comment | undefined;
}

const URL_IN_TEXT = /https?:\/\/[^\s)]+/;

export function BrowserStepCard({ taskId, step }: Props) {
  const sendComment = useAppStore((s) => s.sendComment);
  const t = useT();
  const { busy: sending, error, run } = useCardAction();
  const url = step?.notice?.code === 'browser_step' ? step.notice.url : step?.body.match(URL_IN_TEXT)?.[0];

  const done = () => run(() => sendComment(taskId, t('browserStep.doneReply')));

  return (
    <section className="approval-card" data-testid="browser-step-card" aria-label={t('browserStep.needed')}>
      <header className="approval-header">
        <span className="approval-kind">{t('browserStep.needed')}</span>
      </header>
      <p data-testid="browser-step-text">{step ? noticeText(t, step) : t('browserStep.fallback')}</p>
      <div className="approval-actions">
        {url ? (
          <a className="button" href={url} target="_blank" rel="noreferrer noopener" data-testid="browser-step-open">
            {t('browserStep.open')}
          </a>
        ) : null}
        <button
          type="button"
          className="button button-primary"
          disabled={sending}
          onClick={done}
          data-testid="browser-step-done"
        >
          {sending ? t('browserStep.sending') : t('browserStep.done')}
        </button>
      </div>
      {error ? (
        <p className="text-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="field-hint">{t('browserStep.hint')}</div>
    </section>
  );
}
