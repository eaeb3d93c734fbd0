// The choices an open question offers, as buttons under it: a click sends that choice as the answer, the same way
// the composer sends a typed one (sendComment, with the profile picked for the task's next job).
import { useState } from 'react';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';

interface Props {
  taskId: string;
  choices: readonly string[];
}

export function QuickReplies({ taskId, choices }: Props) {
  const t = useT();
  const sendComment = useAppStore((s) => s.sendComment);
  const [sending, setSending] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function answer(choice: string) {
    if (sending !== null) return;
    setSending(choice);
    setError(null);
    const outcome = await sendComment(taskId, choice);
    // On success the question is answered and this row goes; on failure the person can pick again or type.
    setSending(null);
    if (!outcome.ok) setError(t('chat.quickReply.failed', { error: outcome.error.message }));
  }

  return (
    <div className="quick-replies" data-testid="quick-replies">
      <ul className="quick-reply-list" aria-label={t('chat.quickReplies')}>
        {choices.map((choice) => (
          <li key={choice}>
            <button
              type="button"
              className="button quick-reply"
              disabled={sending !== null}
              aria-busy={sending === choice ? 'true' : undefined}
              title={t('chat.quickReply.title', { choice })}
              onClick={() => void answer(choice)}
              data-testid="quick-reply"
            >
              {choice}
            </button>
          </li>
        ))}
      </ul>
      {error ? (
        <p className="text-error quick-reply-error" data-testid="quick-reply-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
