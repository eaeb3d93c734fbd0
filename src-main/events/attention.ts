// The notification projection: which tasks need the person (asked, waiting for a decision, a token, a browser step,
// the review of its folder's settings files, or failed) and the notices a desktop shell shows for waits and terminal
// states. Built from the DB on start, then kept current from events; it only reads. Every text the model or a tool
// wrote (titles, questions, commands, errors) goes through the untrusted-text renderer, so a notification, the tray
// menu and a webhook show hidden characters as ⟨U+…⟩ instead of passing them on.
import type { Job, JobStatus, Task } from '../../src-shared/entities';
import type { MaestroEvent } from '../../src-shared/events';
import { plainUntrusted, untrustedLine } from '../../src-shared/untrusted-text';
import type { Store } from '../db/store';

export type AttentionReason =
  | 'ask'
  | 'tool_request'
  | 'package_request'
  | 'mcp_auth_required'
  | 'browser'
  | 'settings'
  | 'failed';

export interface AttentionItem {
  taskId: string;
  jobId: string;
  title: string;
  reason: AttentionReason;
  /** What the person is asked to do, in words (the question, the command, the package). */
  detail: string;
}

export interface Notice {
  taskId: string;
  jobId: string;
  kind: AttentionReason | 'succeeded' | 'cancelled';
  title: string;
  body: string;
}

/** The latest job's statuses that put a task in the projection (apply() says why). */
const NEEDS_PERSON: readonly JobStatus[] = ['waiting_human', 'failed'];

const FIRST_LINE = (text: string, max = 160) => untrustedLine(text, max);

/** The first line, and how many more there are: a notification never passes a multi-line text off as one line. */
const FIRST_LINE_OF_MANY = (text: string) => {
  const more = text.trim().split('\n').length - 1;
  return more > 0 ? `${FIRST_LINE(text)} … (+${more} more lines)` : FIRST_LINE(text);
};

const TITLE = (task: Task) => plainUntrusted(task.title, { multiline: false });

export class AttentionProjection {
  private readonly items = new Map<string, AttentionItem>();
  private readonly listeners = new Set<(notice: Notice | null) => void>();
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly store: Store) {}

  /**
   * Rebuilds from the DB, then follows events. Only the tasks whose latest job waits for the person or failed are read
   * (an index of migration 21), so a start costs what waits, not every task ever made; newest first, as before.
   */
  start(): this {
    for (const task of this.store.tasks.withLatestStatus(NEEDS_PERSON)) {
      const job = this.store.jobs.latestForTask(task.id);
      if (job) this.apply(task, job);
    }
    this.unsubscribe = this.store.subscribe((e) => this.onEvent(e));
    return this;
  }

  dispose(): void {
    this.unsubscribe?.();
    this.listeners.clear();
  }

  /** Tasks that need the person, oldest first. */
  list(): AttentionItem[] {
    return [...this.items.values()];
  }

  get count(): number {
    return this.items.size;
  }

  /** Called with each notice to show, and with null when only the list changed. */
  onChange(listener: (notice: Notice | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private onEvent(event: MaestroEvent): void {
    if (event.type === 'mcp_prompt.changed') {
      this.onMcpPrompt(event);
      return;
    }
    if (event.type !== 'job.changed') return;
    const task = this.store.tasks.get(event.taskId);
    const latest = this.store.jobs.latestForTask(event.taskId);
    // Only the task's latest job speaks for it (an older job ending does not clear a newer wait).
    if (!task || latest?.id !== event.job.id) return;
    const before = this.items.get(task.id);
    const item = this.apply(task, event.job);
    const notice = this.noticeFor(task, event.job, item);
    if (notice || before !== item) for (const l of this.listeners) l(notice);
  }

  /**
   * An MCP server's question while its call runs: the job is running, not parked, but the task waits for the person
   * all the same, so it counts as a question (`ask`) until it closes; then the latest job speaks for the task again.
   */
  private onMcpPrompt(event: Extract<MaestroEvent, { type: 'mcp_prompt.changed' }>): void {
    const task = this.store.tasks.get(event.taskId);
    const latest = this.store.jobs.latestForTask(event.taskId);
    if (!task || !latest) return;
    const before = this.items.get(task.id);
    if (!event.open) {
      const item = this.apply(task, latest);
      if (before !== item) for (const l of this.listeners) l(null);
      return;
    }
    const { prompt } = event;
    const asks = prompt.kind === 'elicit' ? `asks: ${prompt.message}` : 'asks to use the model';
    const item: AttentionItem = {
      taskId: task.id,
      jobId: prompt.jobId,
      title: TITLE(task),
      reason: 'ask',
      detail: FIRST_LINE(`MCP server "${prompt.server}" ${asks}`),
    };
    this.items.set(task.id, item);
    const notice: Notice = {
      taskId: task.id,
      jobId: prompt.jobId,
      kind: 'ask',
      title: `${TITLE(task)} asks you a question`,
      body: item.detail,
    };
    for (const l of this.listeners) l(notice);
  }

  private apply(task: Task, job: Job): AttentionItem | undefined {
    const reason: AttentionReason | null =
      job.status === 'waiting_human' ? job.waitReason : job.status === 'failed' ? 'failed' : null;
    if (!reason) {
      this.items.delete(task.id);
      return undefined;
    }
    const item: AttentionItem = {
      taskId: task.id,
      jobId: job.id,
      title: TITLE(task),
      reason,
      detail: this.detail(job, reason),
    };
    this.items.set(task.id, item);
    return item;
  }

  private detail(job: Job, reason: AttentionReason): string {
    switch (reason) {
      case 'ask': {
        const question = this.store.comments
          .listForJob(job.id)
          .filter((c) => c.kind === 'question')
          .at(-1);
        return question ? FIRST_LINE(question.body) : 'The agent asked a question.';
      }
      case 'tool_request': {
        const pending = this.store.toolRequests.listForJob(job.id).filter((r) => r.status === 'pending');
        return (
          pending.map((r) => FIRST_LINE_OF_MANY(commandOf(r) ?? r.summary)).join(' · ') ||
          'A tool call waits for approval.'
        );
      }
      case 'package_request': {
        const pending = this.store.packageRequests.listForJob(job.id).filter((r) => r.status === 'pending');
        return (
          pending
            .map((r) => FIRST_LINE(`Install ${r.manager} package ${r.name}${r.version ? `@${r.version}` : ''}`))
            .join(' · ') || 'A package waits for approval.'
        );
      }
      // The parking comment says it: the MCP server whose token is missing or was refused; the browser step and URL;
      // the settings files to review.
      case 'mcp_auth_required':
        return this.parkingComment(job) ?? 'An MCP server needs a token.';
      case 'browser':
        return this.parkingComment(job) ?? 'A browser step needs you.';
      case 'settings':
        return this.parkingComment(job) ?? 'Settings files of its folder wait to be reviewed.';
      case 'failed':
        return FIRST_LINE(job.error ?? 'The job failed.');
    }
  }

  private parkingComment(job: Job): string | undefined {
    const why = this.store.comments
      .listForJob(job.id)
      .filter((c) => c.author === 'system')
      .at(-1);
    return why && FIRST_LINE(why.body, 240);
  }

  private noticeFor(task: Task, job: Job, item: AttentionItem | undefined): Notice | null {
    if (item) {
      const heading: Record<AttentionReason, string> = {
        ask: 'asks you a question',
        tool_request: 'wants to run a command',
        package_request: 'wants to install a package',
        mcp_auth_required: 'needs an authorization',
        browser: 'needs you in the browser',
        settings: "waits for you to review its folder's settings files",
        failed: 'failed',
      };
      return {
        taskId: task.id,
        jobId: job.id,
        kind: item.reason,
        title: `${TITLE(task)} ${heading[item.reason]}`,
        body: item.detail,
      };
    }
    if (job.status === 'succeeded') {
      return {
        taskId: task.id,
        jobId: job.id,
        kind: 'succeeded',
        title: `${TITLE(task)} is done`,
        body: FIRST_LINE(job.result ?? ''),
      };
    }
    if (job.status === 'cancelled') {
      return { taskId: task.id, jobId: job.id, kind: 'cancelled', title: `${TITLE(task)} was cancelled`, body: '' };
    }
    return null;
  }
}

/** A run_command request's command as `$ command` (its summary's other lines say where it runs), else undefined. */
function commandOf(request: { tool: string; args: unknown }): string | undefined {
  const command = (request.args as { command?: unknown } | null)?.command;
  return request.tool === 'run_command' && typeof command === 'string' ? `$ ${command}` : undefined;
}
