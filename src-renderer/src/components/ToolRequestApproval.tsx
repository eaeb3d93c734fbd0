// The approval card of one tool request: the tool and the summary of what will run, exactly as the backend wrote it,
// with Approve once / Approve for this task / Deny (P7.01, P7.03–P7.05); an edit (edit_file, write_file) shows the
// diff it would apply instead. A refused decision shows on the card. The keyboard shortcuts (A / D on the focused
// card) press its buttons: see decideFocusedCard.
import { useMemo, useState } from 'react';
import type { CommandDisplay, ToolRequest } from '../../../src-shared/entities';
import { useCardAction } from '../hooks/useCardAction';
import { useT } from '../i18n';
import { useAppStore } from '../store/store';
import { ApprovalCard, DecisionButton, DenyReason, reasonOf } from './ApprovalCard';
import { DiffView } from './DiffView';
import { parseDiff } from './diff-lines';
import { ProtectedFileNotice } from './ProtectedFileNotice';

type Choice = { decision: 'approve'; scope: 'once' | 'task' } | { decision: 'deny' };

export function ToolRequestApproval({ request }: { request: ToolRequest }) {
  const decide = useAppStore((s) => s.decideToolRequest);
  const { busy, error, run } = useCardAction();
  const [reason, setReason] = useState('');
  const t = useT();

  const choose = (choice: Choice) =>
    run(() =>
      decide({
        taskId: request.taskId,
        requestId: request.id,
        decision: choice.decision,
        scope: choice.decision === 'approve' ? choice.scope : 'once',
        ...(choice.decision === 'deny' ? reasonOf(reason) : {}),
      }),
    );

  return (
    <ApprovalCard
      testId="tool-request"
      requestId={request.id}
      tool={request.tool}
      label={t('approval.toolLabel', { tool: request.tool })}
      wants={
        <>
          {t('approval.toolWants')} <code data-testid="tool-request-tool">{request.tool}</code>
        </>
      }
      error={error}
      actions={
        <>
          <DecisionButton
            action="approve"
            busy={busy}
            onClick={() => void choose({ decision: 'approve', scope: 'once' })}
            testId="approve-once"
          >
            {t('approval.approveOnce')}
          </DecisionButton>
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
          <DenyReason value={reason} onChange={setReason} busy={busy} />
          <DecisionButton action="deny" busy={busy} onClick={() => void choose({ decision: 'deny' })} testId="deny">
            {t('approval.deny')}
          </DecisionButton>
        </>
      }
    >
      {request.display?.kind === 'protected_file' ? <ProtectedFileNotice display={request.display} /> : null}
      {request.display?.kind === 'command' ? (
        <CommandSummary display={request.display} />
      ) : (
        <RequestSummary tool={request.tool} summary={request.summary} />
      )}
    </ApprovalCard>
  );
}

const WRITING_TOOLS: readonly string[] = ['edit_file', 'write_file'];

/**
 * What the call would do: an edit's diff under a line naming the file, or the summary as the backend wrote it (an
 * edit whose change cannot be shown says why there).
 */
function RequestSummary({ tool, summary }: { tool: string; summary: string }) {
  const t = useT();
  const diff = useMemo(() => (WRITING_TOOLS.includes(tool) ? parseDiff(summary) : null), [tool, summary]);
  if (!diff) {
    return (
      <pre className="approval-summary" data-testid="tool-request-summary">
        {summary}
      </pre>
    );
  }
  const file = diff.file ?? '?';
  return (
    <div className="approval-diff" data-testid="tool-request-summary" data-file={file}>
      <p className="step-result-line">
        {t(tool === 'edit_file' ? 'edit.request.edit' : 'edit.request.write', { path: file })}
      </p>
      <DiffView text={summary} testId="tool-request-diff" />
    </div>
  );
}

/** A command as the card words it: the command line, where it runs and for how long, its hosts, and a warning when it
 * runs outside the OS sandbox. */
function CommandSummary({ display }: { display: CommandDisplay }) {
  const t = useT();
  const where = display.cwd === '.' ? t('approval.cmd.workspace') : display.cwd;
  const seconds = Math.round(display.timeoutMs / 100) / 10;
  return (
    <div className="approval-command" data-testid="tool-request-summary">
      <pre className="approval-summary">{`$ ${display.command}\n`}</pre>
      <p className="approval-note">{t('approval.cmd.where', { where, seconds })}</p>
      {display.network.length > 0 ? (
        <p className="approval-note">{t('approval.cmd.network', { hosts: display.network.join(', ') })}</p>
      ) : null}
      {display.unsandboxed ? (
        <p className="approval-warning" data-testid="tool-request-unsandboxed" data-why={display.unsandboxed.why}>
          {display.unsandboxed.why === 'asked'
            ? t('approval.cmd.outside')
            : t('approval.cmd.noSandbox', { reason: display.unsandboxed.reason })}
        </p>
      ) : null}
    </div>
  );
}
