// The tool calls of a recorded AgentTurn (a step; TurnRow shows the rest of it), each as one block — its arguments in
// a line, its one state (running, waiting for approval, done, failed, denied, interrupted), the person's decision on
// it, and its result: an edit as a diff, a command with its folder, exit code and output, a read as a short excerpt;
// and the files its run changed, as the checkpoint after it recorded them (or what changed outside the agent before it).
// Its state comes from the record alone, so it is the same after the job ended, after a reload and after a restart.
import { assertNever } from '../../../src-shared/assert-never';
import { isTerminal, type StepToolCall, type ToolCallDenial, type ToolRequest } from '../../../src-shared/entities';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import { useT } from '../hooks/useT';
import { selectCheckpointIndex } from '../store/checkpoint-index';
import { selectDetail } from '../store/entity-selectors';
import { useAppStore } from '../store/store';
import { CheckpointFiles } from './CheckpointFiles';
import { DiffView } from './DiffView';
import { UntrustedText } from './UntrustedText';

/** The tool calls of a step, each with its one state (a call without an answer of a job that stopped: interrupted). */
export function StepTools({ jobId, calls }: { jobId: string; calls: readonly StepToolCall[] }) {
  const t = useT();
  const jobEnded = useAppStore((s) => {
    const status = selectDetail(s)?.jobs.find((j) => j.id === jobId)?.status;
    return status === undefined || isTerminal(status) || status === 'waiting_human' || status === 'retry';
  });
  return (
    <ul className="stack-list step-tools" aria-label={t('stream.toolCalls')}>
      {calls.map((call) => (
        <ToolCallBlock key={call.id} call={call} jobEnded={jobEnded} />
      ))}
    </ul>
  );
}

type CallState = 'running' | 'waiting' | 'ok' | 'error' | 'denied' | 'interrupted';

/** A call's one state: from its answer when it has one, else from its request and whether its job still runs. */
export function callState(call: StepToolCall, request: ToolRequest | undefined, jobEnded: boolean): CallState {
  if (request?.status === 'denied' || call.result?.denial) return 'denied';
  if (call.result) return call.result.ok ? 'ok' : 'error';
  if (request?.status === 'pending') return 'waiting';
  return jobEnded ? 'interrupted' : 'running';
}

function ToolCallBlock({ call, jobEnded }: { call: StepToolCall; jobEnded: boolean }) {
  const t = useT();
  const request = useAppStore((s) => s.entities.requests?.tool.find((r) => r.callId === call.id));
  const checkpoint = useAppStore((s) => selectCheckpointIndex(s).underCall.get(call.id));
  const state = callState(call, request, jobEnded);
  const args = parseArgs(call.arguments);
  return (
    <li
      className={`step-tool stream-tool stream-tool-${state}`}
      data-testid="step-tool"
      data-tool={call.name}
      data-status={state}
      data-call-id={call.id}
    >
      <span className="stream-tool-name">{call.name}</span>
      <span className="stream-tool-status">{t(`step.tool.${state}`)}</span>
      <CallSummary name={call.name} args={args} raw={call.arguments} />
      {state === 'denied' ? (
        <Denied denial={call.result?.denial ?? { by: 'person', reason: request?.denyReason ?? null }} />
      ) : request && request.status !== 'pending' ? (
        <Decision request={request} />
      ) : null}
      {/* A denied call's result is the text written for the model: the line above says it in the person's words. */}
      {call.result && state !== 'denied' ? <CallResult name={call.name} result={call.result} /> : null}
      {checkpoint ? <CheckpointFiles checkpoint={checkpoint} /> : null}
    </li>
  );
}

function Decision({ request }: { request: ToolRequest }) {
  const t = useT();
  return (
    <span className="step-decision" data-testid="step-decision" data-status={request.status}>
      {t(request.scope === 'task' ? 'step.decision.task' : 'step.decision.once')}
    </span>
  );
}

/**
 * Why the call did not run, in the person's words, from the denial's data (the step's result, else the request):
 * the reason — the person's own, or the Auto Prompter rule's — shown as untrusted text, once.
 */
function Denied({ denial }: { denial: ToolCallDenial }) {
  const t = useT();
  let template: string;
  switch (denial.by) {
    case 'person':
      template = denial.reason ? t('step.decision.deniedBecause') : t('step.decision.denied');
      break;
    case 'rule':
      template = t('step.decision.deniedByRule', { rule: denial.rule });
      break;
    default:
      return assertNever(denial, 'denial');
  }
  return (
    <span className="step-decision" data-testid="step-decision" data-status="denied" data-denied-by={denial.by}>
      {withReason(template, denial.reason)}
    </span>
  );
}

/** The words with the reason in the place of `{reason}`, rendered as untrusted text (it is not the UI's). */
function withReason(template: string, reason: string | null) {
  const at = template.indexOf('{reason}');
  if (at === -1 || reason === null) return template;
  return (
    <>
      {template.slice(0, at)}
      <q className="step-denial-reason" data-testid="step-denial-reason">
        <UntrustedText text={reason} collapseBlankLines={3} />
      </q>
      {template.slice(at + '{reason}'.length)}
    </>
  );
}

type Args = Record<string, unknown> | null;

function parseArgs(text: string): Args {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (args: Args, key: string) => (typeof args?.[key] === 'string' ? (args[key] as string) : null);

/** The call's arguments in a line: a command with its folder, a path, or the arguments themselves, clipped. */
function CallSummary({ name, args, raw }: { name: string; args: Args; raw: string }) {
  const t = useT();
  const command = name === 'run_command' ? str(args, 'command') : null;
  if (command !== null) {
    const cwd = str(args, 'cwd');
    return (
      <code className="stream-tool-args untrusted-command" data-testid="step-command">
        $ <UntrustedText text={command} mode="command" collapseBlankLines={3} />
        {cwd ? <span className="step-cwd"> {t('step.cwd', { cwd })}</span> : null}
      </code>
    );
  }
  const path = str(args, 'path');
  const shown = path ?? (raw === '{}' ? '' : clip(raw, 200));
  return shown ? <code className="stream-tool-args">{shown}</code> : null;
}

const EXCERPT_LINES = 8;

function CallResult({ name, result }: { name: string; result: NonNullable<StepToolCall['result']> }) {
  const t = useT();
  if (!result.images?.length) return <CallResultBody name={name} result={result} />;
  // The images a tool returned, from their stored bytes: data: URLs, which the CSP's img-src allows.
  return (
    <>
      <div className="step-images" data-testid="step-images">
        {result.images.map((image, i) => (
          <img
            // biome-ignore lint/suspicious/noArrayIndexKey: a result's images never change order.
            key={i}
            className="step-image"
            src={`data:${image.mimeType};base64,${image.data}`}
            alt={t('step.image', { type: image.mimeType })}
          />
        ))}
      </div>
      <CallResultBody name={name} result={result} />
    </>
  );
}

function CallResultBody({ name, result }: { name: string; result: NonNullable<StepToolCall['result']> }) {
  const t = useT();
  const more = result.chars - result.content.length;
  const tail = more > 0 ? <p className="stream-note">{t('step.moreChars', { count: more })}</p> : null;
  if ((name === 'edit_file' || name === 'write_file') && result.ok) {
    // The whole diff when the tool kept one for the person (the model's is capped); else the result as logged.
    // The tool's own summary line is English: the diff's header names the file and counts the lines instead.
    const [summary, ...rest] = (result.display ?? result.content).split('\n');
    return (
      <div className="step-result" title={summary}>
        <DiffView text={rest.join('\n')} />
        {result.display === undefined ? tail : null}
      </div>
    );
  }
  if (name === 'run_command') {
    const [status, ...output] = result.content.split('\n');
    const code = /^Exit code: (-?\d+)$/.exec(status ?? '')?.[1];
    return (
      <details className="stream-tool-result step-result" data-testid="step-output" open={!result.ok}>
        <summary>
          {code !== undefined ? t('step.exit', { code }) : status} · {t('step.output')}
        </summary>
        <pre className="step-pre">{code !== undefined ? output.join('\n') : result.content}</pre>
        {tail}
      </details>
    );
  }
  const subtask = name === 'create_subtask' ? SUBTASK_STARTED.exec(result.content) : null;
  if (subtask?.groups) return <SubtaskLink taskId={subtask.groups.id ?? ''} title={subtask.groups.title ?? ''} />;
  const lines = result.content.split('\n');
  const excerpt = name === 'read_file' && lines.length > EXCERPT_LINES;
  return (
    <details className="stream-tool-result step-result" data-testid="step-result" open={!result.ok}>
      <summary>{excerpt ? t('step.excerpt') : t('step.result')}</summary>
      <pre className="step-pre">{excerpt ? `${lines.slice(0, EXCERPT_LINES).join('\n')}\n…` : result.content}</pre>
      {excerpt ? null : tail}
    </details>
  );
}

/** create_subtask's result (engine/subtask-tool.ts), which the model reads in English. */
const SUBTASK_STARTED = /^Subtask "(?<title>.*)" started \(task (?<id>\S+?),/s;

function SubtaskLink({ taskId, title }: { taskId: string; title: string }) {
  const t = useT();
  const selectTask = useAppStore((s) => s.selectTask);
  return (
    <p className="step-result-line">
      {t('step.subtaskStarted', { title: untrustedLine(title, 200) })}{' '}
      <button type="button" className="link-button" onClick={() => void selectTask(taskId)} data-testid="step-subtask">
        {t('step.subtask')}
      </button>
    </p>
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
