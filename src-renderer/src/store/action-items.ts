// The notification center's entries, derived from the task list and each task's latest job, never kept on their own:
// after a reload they are right again, and an entry goes as soon as its cause is resolved (P7.20).
import type { Job, Task } from '../../../src-shared/entities';

export type ActionReason =
  | 'tool_request'
  | 'package_request'
  | 'ask'
  | 'mcp_auth_required'
  | 'browser'
  | 'settings'
  | 'waiting'
  | 'failed';

export interface ActionItem {
  taskId: string;
  title: string;
  reason: ActionReason;
  /** The latest job, when known; a failure can be dismissed only by its job id. */
  jobId: string | null;
  /** Sort key: when the job last changed, else when the task was made. */
  at: string;
  /** The failure's message, if any. */
  detail: string | null;
}

/**
 * Tasks whose latest job needs the user: a tool or package decision, a question, an MCP sign-in, a step in their
 * browser, a review of its folder's settings files, or a failure not yet dismissed. `latestJobs` may lag the task list (a task loaded before its job): then the task's status decides and
 * the reason is generic until the job is known.
 */
export function actionItems(
  tasks: readonly Task[],
  latestJobs: Readonly<Record<string, Job>>,
  dismissedFailures: readonly string[],
  /** Tasks with an MCP server's question open: their job runs, waiting in place for the person's answer. */
  asking: Readonly<Record<string, readonly string[]>> = {},
): ActionItem[] {
  const items: ActionItem[] = [];
  for (const task of tasks) {
    const known = latestJobs[task.id];
    const job = known && known.status === task.status ? known : undefined;
    const base = { taskId: task.id, title: task.title, jobId: job?.id ?? null, at: job?.updatedAt ?? task.createdAt };
    if (task.status === 'running' && (asking[task.id]?.length ?? 0) > 0) {
      items.push({ ...base, reason: 'ask', detail: null });
    } else if (task.status === 'waiting_human') {
      const reason = waitingReason(job);
      if (reason) items.push({ ...base, reason, detail: null });
    } else if (task.status === 'failed') {
      if (job && dismissedFailures.includes(job.id)) continue;
      items.push({ ...base, reason: 'failed', detail: job?.error ?? null });
    }
  }
  return items.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

function waitingReason(job: Job | undefined): ActionReason | null {
  if (!job) return 'waiting';
  switch (job.waitReason) {
    case 'tool_request':
    case 'package_request':
    case 'ask':
    case 'mcp_auth_required':
    case 'browser':
    case 'settings':
      return job.waitReason;
    case null:
      return 'waiting';
    default: {
      const unknown: never = job.waitReason;
      throw new Error(`unknown wait reason ${String(unknown)}`);
    }
  }
}
