// A job status as a coloured pill; "no job" when a task has none.
import type { JobStatus, WaitReason } from '../../../src-shared/entities';
import { useT } from '../hooks/useT';

interface Props {
  status: JobStatus | null;
  waitReason?: WaitReason | null;
  testId?: string;
}

export function StatusBadge({ status, waitReason, testId = 'status-badge' }: Props) {
  const t = useT();
  const label = t(`status.${status ?? 'none'}`);
  const detail = status === 'waiting_human' && waitReason ? ` · ${t(`wait.${waitReason}`)}` : '';
  return (
    <span className={`badge badge-${status ?? 'none'}`} data-testid={testId} data-status={status ?? 'none'}>
      {label}
      {detail}
    </span>
  );
}
