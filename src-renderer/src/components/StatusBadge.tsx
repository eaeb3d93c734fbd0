// A job status as a coloured pill; "no job" when a task has none.
import type { JobStatus, WaitReason } from '../../../src-shared/entities';

const LABELS: Record<JobStatus, string> = {
  queued: 'queued',
  running: 'running',
  waiting_human: 'waiting for you',
  waiting_subtasks: 'waiting for subtasks',
  retry: 'retrying',
  succeeded: 'succeeded',
  failed: 'failed',
  cancelled: 'cancelled',
};

const WAIT_LABELS: Record<WaitReason, string> = {
  ask: 'question',
  tool_request: 'tool approval',
  package_request: 'package approval',
  mcp_auth_required: 'MCP sign-in',
  browser: 'browser',
};

interface Props {
  status: JobStatus | null;
  waitReason?: WaitReason | null;
  testId?: string;
}

export function StatusBadge({ status, waitReason, testId = 'status-badge' }: Props) {
  const label = status ? LABELS[status] : 'no job';
  const detail = status === 'waiting_human' && waitReason ? ` · ${WAIT_LABELS[waitReason]}` : '';
  return (
    <span className={`badge badge-${status ?? 'none'}`} data-testid={testId} data-status={status ?? 'none'}>
      {label}
      {detail}
    </span>
  );
}
