// ChatComposer: sends a comment to the task, says beforehand what sending will do (interjection, answer, follow-up,
// added to the queued job) and afterwards what the write gate did. While an approval card waits it does not send;
// a send that still meets 409 approval_pending shows the message, points at the card and keeps the text (P7.21). A
// message that starts a new job may pick its LLM profile (ComposerProfile). Locked, empty and not in use, it gives
// its room to the card it waits for (hidden, its state kept); one being typed in when a card comes stays, locked.
import { type FocusEvent, type FormEvent, type KeyboardEvent, type ReactNode, useState } from 'react';
import { isShortcut, shortcutKeys } from '../hooks/shortcuts';
import { IS_MAC } from '../hooks/useShortcuts';
import { useT } from '../hooks/useT';
import type { Disposition } from '../store/detail-slice';
import { useAppStore } from '../store/store';
import { ComposerProfile } from './ComposerProfile';
import { type ComposerMode, composerHint, startsJob } from './composer-mode';

type Status =
  | { kind: 'idle' }
  | { kind: 'sent'; disposition: Disposition }
  | { kind: 'failed'; message: string; approvalPending: boolean };

interface Props {
  taskId: string;
  mode: ComposerMode;
  /** The task's own LLM profile and the one its latest job runs on (null: the default profile). */
  taskProfile: string | null;
  jobProfile: string | null;
  /** Scrolls to and focuses the approval cards. */
  onPointAtCards(): void;
  /** Stop, beside Send while the job works (StopJob). */
  stop?: ReactNode;
}

export function ChatComposer({ taskId, mode, taskProfile, jobProfile, onPointAtCards, stop }: Props) {
  const sendComment = useAppStore((s) => s.sendComment);
  const [body, setBody] = useState('');
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [inUse, setInUse] = useState(false);
  const locked = mode.kind === 'locked';
  const givesWay = locked && body === '' && !inUse;
  const t = useT();

  async function send(e?: FormEvent) {
    e?.preventDefault();
    if (body.trim() === '' || sending || locked) return;
    setSending(true);
    const outcome = await sendComment(taskId, body);
    setSending(false);
    if (outcome.ok) {
      setBody('');
      setStatus({ kind: 'sent', disposition: outcome.disposition });
    } else {
      const approvalPending = outcome.error.code === 'approval_pending';
      setStatus({ kind: 'failed', message: outcome.error.message, approvalPending });
      if (approvalPending) onPointAtCards();
    }
  }

  // Send is this input's own key, so it is matched here rather than by the window-wide listener.
  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (!isShortcut('send', e.nativeEvent, { mac: IS_MAC, target: 'composer', modal: false })) return;
    e.preventDefault();
    void send();
  }

  return (
    <form
      className={`composer composer-${mode.kind}`}
      onSubmit={send}
      data-testid="chat-composer"
      data-mode={mode.kind}
      data-locked={locked ? 'true' : 'false'}
      hidden={givesWay}
      onFocus={() => setInUse(true)}
      onBlur={(e: FocusEvent<HTMLFormElement>) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setInUse(false);
      }}
    >
      <p className={locked ? 'composer-hint composer-hint-locked' : 'composer-hint'} data-testid="composer-hint">
        <span data-testid={locked ? 'composer-locked' : undefined}>{composerHint(mode, t)}</span>
        {mode.kind === 'answer' && mode.question ? (
          <span className="composer-question" data-testid="composer-question">
            {' '}
            {t('composer.question', { question: mode.question.body })}
          </span>
        ) : null}
        {locked ? (
          <button type="button" className="link-button" onClick={onPointAtCards} data-testid="composer-show-request">
            {t('composer.showRequest')}
          </button>
        ) : null}
      </p>
      <textarea
        rows={3}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t(mode.kind === 'answer' ? 'composer.placeholder.answer' : 'composer.placeholder.message', {
          keys: shortcutKeys('send', IS_MAC),
        })}
        aria-keyshortcuts={IS_MAC ? 'Meta+Enter' : 'Control+Enter'}
        data-composer-input
        aria-label={t(mode.kind === 'answer' ? 'composer.label.answer' : 'composer.label.message')}
        data-testid="composer-input"
      />
      <div className="composer-row">
        <output className="composer-status" data-testid="composer-status">
          {status.kind === 'sent' ? (
            <span data-testid="composer-disposition" data-disposition={status.disposition}>
              {t('composer.sent', { disposition: t(`chat.disposition.${status.disposition}`) })}
            </span>
          ) : status.kind === 'failed' ? (
            <span className="text-error" data-testid="composer-error">
              {status.message}
              {status.approvalPending ? (
                <>
                  {' '}
                  <button
                    type="button"
                    className="link-button"
                    onClick={onPointAtCards}
                    data-testid="composer-point-card"
                  >
                    {t('composer.pointCard')}
                  </button>
                </>
              ) : null}
            </span>
          ) : null}
        </output>
        {locked ? null : (
          <ComposerProfile
            taskId={taskId}
            taskProfile={taskProfile}
            startsJob={startsJob(mode)}
            jobProfile={jobProfile}
          />
        )}
        {stop}
        <button
          type="submit"
          className="button button-primary"
          disabled={sending || locked || body.trim() === ''}
          title={locked ? t('composer.lockedTitle') : undefined}
          data-testid="composer-send"
        >
          {sending ? t('composer.sending') : mode.kind === 'answer' ? t('composer.sendAnswer') : t('composer.send')}
        </button>
      </div>
    </form>
  );
}
