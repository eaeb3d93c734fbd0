// ChatComposer: sends a comment to the task and says what the write gate did with it. On a failure (say 409
// approval_pending) the text stays so nothing typed is lost.
import { type FormEvent, type KeyboardEvent, useState } from 'react';
import type { Disposition } from '../store/detail-slice';
import { useAppStore } from '../store/store';
import { DISPOSITION_LABELS } from './ChatMessage';

type Status = { kind: 'idle' } | { kind: 'sent'; disposition: Disposition } | { kind: 'failed'; message: string };

export function ChatComposer({ taskId }: { taskId: string }) {
  const sendComment = useAppStore((s) => s.sendComment);
  const [body, setBody] = useState('');
  const [sending, setSending] = useState(false);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  async function send(e?: FormEvent) {
    e?.preventDefault();
    if (body.trim() === '' || sending) return;
    setSending(true);
    const outcome = await sendComment(taskId, body);
    setSending(false);
    if (outcome.ok) {
      setBody('');
      setStatus({ kind: 'sent', disposition: outcome.disposition });
    } else {
      setStatus({ kind: 'failed', message: outcome.error.message });
    }
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send();
  }

  return (
    <form className="composer" onSubmit={send} data-testid="chat-composer">
      <textarea
        rows={3}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Write to the agent… (Ctrl+Enter sends)"
        aria-label="Message"
        data-testid="composer-input"
      />
      <div className="composer-row">
        <output className="composer-status" data-testid="composer-status">
          {status.kind === 'sent' ? (
            <span data-testid="composer-disposition" data-disposition={status.disposition}>
              Sent: {DISPOSITION_LABELS[status.disposition]}.
            </span>
          ) : status.kind === 'failed' ? (
            <span className="text-error" data-testid="composer-error">
              {status.message}
            </span>
          ) : null}
        </output>
        <button
          type="submit"
          className="button button-primary"
          disabled={sending || body.trim() === ''}
          data-testid="composer-send"
        >
          {sending ? 'Sending…' : 'Send'}
        </button>
      </div>
    </form>
  );
}
