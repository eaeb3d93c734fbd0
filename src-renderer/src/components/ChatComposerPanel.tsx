// ChatComposerPanel: the approval cards of the selected task's waiting tool and package requests (read from the DB,
// so a reload shows them again, P7.01, P7.17) in the ChatComposer's place (locked while a card waits, it shows only
// while in use); and the McpAuthCard while the latest job waits for an MCP token, the BrowserStepCard while it waits
// on a browser step (the composer stays open for both: a comment is an interjection, and wakes a browser wait); and a
// SettingsChangeCard for each settings file of the task's workspace changed outside MAESTRO (the composer stays
// open). While the job waits on settings (a folder's files nobody accepted yet), the cards say that the task starts
// once each is decided. Stop (StopJob) sits beside Send while the job works. What an MCP server asks the person
// while its call runs (McpPromptCard) shows above them all: the job waits in place for it, the composer stays open.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Comment, Job } from '../../../src-shared/entities';
import { useT } from '../hooks/useT';
import { selectDetailOf } from '../store/entity-selectors';
import { pendingRequests } from '../store/requests-slice';
import { useAppStore } from '../store/store';
import { BrowserStepCard } from './BrowserStepCard';
import { ChatComposer } from './ChatComposer';
import { ContextGauge } from './ContextGauge';
import { composerMode } from './composer-mode';
import { McpAuthCard } from './McpAuthCard';
import { McpPromptCard } from './McpPromptCard';
import { PackageRequestApproval } from './PackageRequestApproval';
import { FOLD_DIFFS_FROM, SettingsAcceptAll, SettingsChangeCard } from './SettingsChangeCard';
import { StopJob } from './StopJob';
import { ToolRequestApproval } from './ToolRequestApproval';

const POINT_MS = 1600;

interface Props {
  taskId: string;
  jobs: readonly Job[];
  comments: readonly Comment[];
}

export function ChatComposerPanel({ taskId, jobs, comments }: Props) {
  const requests = useAppStore((s) => (s.entities.requests?.taskId === taskId ? s.entities.requests : null));
  const pending = useMemo(() => pendingRequests(requests, jobs), [requests, jobs]);
  const mcpPrompts = requests?.mcp ?? NO_PROMPTS;
  const job = jobs.at(-1);
  const workspacePath = useAppStore((s) => selectDetailOf(s, taskId)?.task?.workspacePath);
  const taskProfile = useAppStore((s) => selectDetailOf(s, taskId)?.task?.profile ?? null);
  const settingsChanges = useAppStore((s) =>
    s.settingsChanges && s.settingsChanges.workspacePath === workspacePath ? s.settingsChanges.changes : NO_CHANGES,
  );
  const loadSettingsChanges = useAppStore((s) => s.loadSettingsChanges);
  const waitsForToken = job?.status === 'waiting_human' && job.waitReason === 'mcp_auth_required';
  const waitsForBrowser = job?.status === 'waiting_human' && job.waitReason === 'browser';
  const waitsForSettings = job?.status === 'waiting_human' && job.waitReason === 'settings';
  const browserStep = useMemo(
    () => (waitsForBrowser ? comments.filter((c) => c.jobId === job?.id && c.author === 'system').at(-1) : undefined),
    [waitsForBrowser, comments, job],
  );
  const t = useT();
  const mode = useMemo(
    () => composerMode(job, { tool: pending.tool.length, package: pending.package.length }, comments),
    [job, pending, comments],
  );
  const cardsRef = useRef<HTMLElement>(null);
  // Asked to point at the cards: done as soon as they are on screen (after a 409 they may still be loading).
  const [pointAsked, setPointAsked] = useState(0);
  const [pointing, setPointing] = useState(false);
  const pointAtCards = useCallback(() => setPointAsked((n) => n + 1), []);
  const count = pending.tool.length + pending.package.length;
  const hasCards = count > 0;

  // Looked up when the task opens and when its latest job changes (a job start reports changes as events too).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the latest job's status says when to look again
  useEffect(() => {
    if (workspacePath) void loadSettingsChanges(workspacePath);
  }, [loadSettingsChanges, workspacePath, job?.id, job?.status]);

  useEffect(() => {
    const cards = cardsRef.current;
    if (pointAsked === 0 || !hasCards || !cards) return;
    cards.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    cards.focus({ preventScroll: true });
    setPointing(true);
    const timer = setTimeout(() => setPointing(false), POINT_MS);
    return () => clearTimeout(timer);
  }, [pointAsked, hasCards]);

  return (
    <div className="composer-panel" data-testid="chat-composer-panel">
      {mcpPrompts.length > 0 ? (
        <section
          className="approval-cards"
          data-testid="mcp-prompt-cards"
          aria-label={t('mcpPrompt.cards', { count: mcpPrompts.length })}
        >
          {mcpPrompts.map((p) => (
            <McpPromptCard key={p.id} prompt={p} />
          ))}
        </section>
      ) : null}
      {count > 0 ? (
        <section
          ref={cardsRef}
          tabIndex={-1}
          className={pointing ? 'approval-cards approval-cards-pointed' : 'approval-cards'}
          data-testid="approval-cards"
          data-pointed={pointing ? 'true' : 'false'}
          aria-label={t('composer.cards', { count })}
        >
          {pending.tool.map((r) => (
            <ToolRequestApproval key={r.id} request={r} />
          ))}
          {pending.package.map((r) => (
            <PackageRequestApproval key={r.id} request={r} />
          ))}
        </section>
      ) : null}
      {settingsChanges.length > 0 ? (
        <section
          className="approval-cards"
          data-testid="settings-change-cards"
          aria-label={t('settingsChange.cards', { count: settingsChanges.length })}
        >
          {waitsForSettings ? (
            <p className="approval-reason" data-testid="settings-wait">
              {t('settingsChange.waiting')}
            </p>
          ) : null}
          {settingsChanges.length > 1 ? <SettingsAcceptAll changes={settingsChanges} /> : null}
          {settingsChanges.map((c) => (
            <SettingsChangeCard
              key={c.file}
              change={c}
              holdsTask={waitsForSettings && !c.hasAccepted}
              folded={settingsChanges.length >= FOLD_DIFFS_FROM}
            />
          ))}
        </section>
      ) : null}
      {waitsForToken && job && workspacePath ? (
        <div className="approval-cards">
          <McpAuthCard workspacePath={workspacePath} jobId={job.id} parkedAt={job.updatedAt} />
        </div>
      ) : null}
      {waitsForBrowser ? (
        <div className="approval-cards">
          <BrowserStepCard taskId={taskId} step={browserStep} />
        </div>
      ) : null}
      <ContextGauge taskId={taskId} />
      <ChatComposer
        key={taskId}
        taskId={taskId}
        mode={mode}
        taskProfile={taskProfile}
        jobProfile={job?.profile ?? null}
        onPointAtCards={pointAtCards}
        stop={<StopJob taskId={taskId} job={job} />}
      />
    </div>
  );
}

const NO_CHANGES: never[] = [];
const NO_PROMPTS: never[] = [];
