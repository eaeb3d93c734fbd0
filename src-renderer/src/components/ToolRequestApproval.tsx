// The approval card of one tool request: the tool and the summary of what will run, exactly as the backend wrote it,
// with Approve once / Approve for this task (with what it covers: GrantChoice) / Deny (P7.01, P7.03–P7.05); an edit
// (edit_file, write_file) shows the diff it would apply instead; a write to a file that runs code outside the sandbox
// says so first (ProtectedFileNotice). A refused decision shows on the card. The keyboard shortcuts (A / D on the
// focused card) press its buttons: see decideFocusedCard. Everything the model wrote goes through the untrusted-text renderer:
// hidden characters show as ⟨U+…⟩ and are flagged, a multi-line command shows whole with its line count.
import { useMemo, useState } from 'react';
import type { CommandDisplay, ToolRequest } from '../../../src-shared/entities';
import type { GrantChoice as GrantChoiceInput } from '../../../src-shared/grants';
import { plainUntrusted, type RenderedText, renderUntrusted } from '../../../src-shared/untrusted-text';
import { useCardAction } from '../hooks/useCardAction';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { ApprovalCard, DecisionButton, DenyReason, reasonOf } from './ApprovalCard';
import { DiffView } from './DiffView';
import { parseDiff } from './diff-lines';
import { GrantChoice } from './GrantChoice';
import { ProtectedFileNotice } from './ProtectedFileNotice';
import { HiddenCharsFlag, UntrustedLine, UntrustedSegments } from './UntrustedText';

type Choice = { decision: 'approve'; scope: 'once' | 'task'; grant?: GrantChoiceInput } | { decision: 'deny' };

export function ToolRequestApproval({ request }: { request: ToolRequest }) {
  const decide = useAppStore((s) => s.decideToolRequest);
  const { busy, error, run } = useCardAction();
  const [reason, setReason] = useState('');
  const t = useT();
  const command = request.display?.kind === 'command' ? request.display.command : undefined;
  const shown = useMemo(
    () =>
      command === undefined
        ? renderUntrusted(request.summary)
        : renderUntrusted(command, { mode: 'command', collapseBlankLines: BLANK_LINES_SHOWN }),
    [command, request.summary],
  );

  const choose = (choice: Choice) =>
    run(() =>
      decide({
        taskId: request.taskId,
        requestId: request.id,
        decision: choice.decision,
        scope: choice.decision === 'approve' ? choice.scope : 'once',
        ...(choice.decision === 'approve' && choice.grant ? { grant: choice.grant } : {}),
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
          {t('approval.toolWants')}{' '}
          <code data-testid="tool-request-tool">
            <UntrustedLine text={request.tool} />
          </code>
        </>
      }
      error={error}
      notices={
        <>
          <HiddenCharsFlag count={shown.hidden} />
          {command !== undefined && shown.lines > 1 ? (
            <p className="approval-warning" data-testid="command-lines" data-lines={shown.lines}>
              {t('approval.cmd.lines', { count: shown.lines })}
            </p>
          ) : null}
        </>
      }
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
          {/* A command on an SSH target asks every time unless the policy allows it there: no grant would cover it. */}
          {request.display?.kind === 'command' && request.display.target ? null : (
            <GrantChoice
              request={request}
              busy={busy}
              onApprove={(grant) => void choose({ decision: 'approve', scope: 'task', grant })}
            />
          )}
          <DenyReason value={reason} onChange={setReason} busy={busy} />
          <DecisionButton action="deny" busy={busy} onClick={() => void choose({ decision: 'deny' })} testId="deny">
            {t('approval.deny')}
          </DecisionButton>
        </>
      }
    >
      {request.display?.kind === 'protected_file' ? <ProtectedFileNotice display={request.display} /> : null}
      {request.display?.kind === 'command' ? (
        <CommandSummary display={request.display} shown={shown} />
      ) : (
        <RequestSummary tool={request.tool} summary={request.summary} shown={shown} />
      )}
    </ApprovalCard>
  );
}

const WRITING_TOOLS: readonly string[] = ['edit_file', 'write_file'];
/** A run of this many blank lines or more in a command shows as one line saying how many, so its end is in sight. */
const BLANK_LINES_SHOWN = 3;

/**
 * What the call would do: an edit's diff under a line naming the file, or the summary as the backend wrote it (an
 * edit whose change cannot be shown says why there).
 */
function RequestSummary({ tool, summary, shown }: { tool: string; summary: string; shown: RenderedText }) {
  const t = useT();
  const diff = useMemo(() => (WRITING_TOOLS.includes(tool) ? parseDiff(summary) : null), [tool, summary]);
  if (!diff) {
    return (
      <pre className="approval-summary" data-testid="tool-request-summary">
        <UntrustedSegments shown={shown} />
      </pre>
    );
  }
  const file = plainUntrusted(diff.file ?? '?', { multiline: false });
  return (
    <div className="approval-diff" data-testid="tool-request-summary" data-file={file}>
      <p className="step-result-line">
        {t(tool === 'edit_file' ? 'edit.request.edit' : 'edit.request.write', { path: file })}
      </p>
      <DiffView text={summary} testId="tool-request-diff" />
    </div>
  );
}

/** A command on an SSH target: "on <target>" with its address, the folder there, and that nothing sandboxes it. */
function RemoteCommandSummary({
  display,
  target,
  shown,
}: {
  display: CommandDisplay;
  target: NonNullable<CommandDisplay['target']>;
  shown: RenderedText;
}) {
  const t = useT();
  const name = plainUntrusted(target.name, { multiline: false });
  const address = plainUntrusted(target.address, { multiline: false });
  const where = display.cwd === '.' ? t('approval.cmd.loginFolder') : plainUntrusted(display.cwd, { mode: 'command' });
  const seconds = Math.round(display.timeoutMs / 100) / 10;
  return (
    <div className="approval-command" data-testid="tool-request-summary" data-target={name}>
      <pre className="approval-summary untrusted-command" data-testid="tool-request-command">
        {'$ '}
        <UntrustedSegments shown={shown} />
        {'\n'}
      </pre>
      <p className="approval-note" data-testid="tool-request-target">
        {t('approval.cmd.onTarget', { target: name, address, where, seconds })}
      </p>
      <p className="approval-warning" data-testid="tool-request-remote">
        {t('approval.cmd.remote', { target: name })}
      </p>
    </div>
  );
}

/** A command as the card words it: the command line (every line of it, in the order the shell reads it), where it
 * runs and for how long, its hosts, and a warning when it runs outside the OS sandbox. */
function CommandSummary({ display, shown }: { display: CommandDisplay; shown: RenderedText }) {
  const t = useT();
  const where = display.cwd === '.' ? t('approval.cmd.workspace') : plainUntrusted(display.cwd, { mode: 'command' });
  const seconds = Math.round(display.timeoutMs / 100) / 10;
  const hosts = display.network.map((host) => plainUntrusted(host, { mode: 'command', multiline: false }));
  if (display.target) return <RemoteCommandSummary display={display} target={display.target} shown={shown} />;
  return (
    <div className="approval-command" data-testid="tool-request-summary">
      <pre className="approval-summary untrusted-command" data-testid="tool-request-command">
        {'$ '}
        <UntrustedSegments shown={shown} />
        {'\n'}
      </pre>
      <p className="approval-note">{t('approval.cmd.where', { where, seconds })}</p>
      {hosts.length > 0 ? (
        <p className="approval-note">{t('approval.cmd.network', { hosts: hosts.join(', ') })}</p>
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
