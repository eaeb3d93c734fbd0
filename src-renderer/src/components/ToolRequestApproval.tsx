// The approval card of one tool request: the tool and the summary of what will run, exactly as the backend wrote it,
// with Approve once / Approve for this task / Deny (P7.01, P7.03–P7.05). A refused decision shows on the card. The
// keyboard shortcuts (A / D on the focused card) press its buttons: see decideFocusedCard.
import type { ToolRequest } from '../../../src-shared/entities';
import { ariaKeyShortcuts } from '../hooks/shortcuts';
import { useCardAction } from '../hooks/useCardAction';
import { IS_MAC } from '../hooks/useShortcuts';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';

type Choice = { decision: 'approve'; scope: 'once' | 'task' } | { decision: 'deny' };

export function ToolRequestApproval({ request }: { request: ToolRequest }) {
  const decide = useAppStore((s) => s.decideToolRequest);
  const { busy, error, run } = useCardAction();
  const t = useT();

  const choose = (choice: Choice) =>
    run(() =>
      decide({
        taskId: request.taskId,
        requestId: request.id,
        decision: choice.decision,
        scope: choice.decision === 'approve' ? choice.scope : 'once',
      }),
    );

  return (
    <section
      className="approval-card"
      tabIndex={-1}
      data-approval-card
      data-testid="tool-request"
      data-request-id={request.id}
      data-tool={request.tool}
      aria-label={t('approval.toolLabel', { tool: request.tool })}
    >
      <header className="approval-header">
        <span className="approval-kind">{t('approval.needed')}</span>
        <span>
          {t('approval.toolWants')} <code data-testid="tool-request-tool">{request.tool}</code>
        </span>
      </header>
      <pre className="approval-summary" data-testid="tool-request-summary">
        {request.summary}
      </pre>
      <div className="approval-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={busy}
          onClick={() => void choose({ decision: 'approve', scope: 'once' })}
          aria-keyshortcuts={ariaKeyShortcuts('approveOnce', IS_MAC)}
          data-card-action="approve"
          data-testid="approve-once"
        >
          {t('approval.approveOnce')}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          title={t('approval.approveTaskHint')}
          onClick={() => void choose({ decision: 'approve', scope: 'task' })}
          data-testid="approve-task"
        >
          {t('approval.approveTask')}
        </button>
        <button
          type="button"
          className="button button-danger"
          disabled={busy}
          onClick={() => void choose({ decision: 'deny' })}
          aria-keyshortcuts={ariaKeyShortcuts('deny', IS_MAC)}
          data-card-action="deny"
          data-testid="deny"
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
