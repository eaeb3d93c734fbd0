// The latest job's progress under the task header: the movements it went through (the current one marked) and,
// while it generates, what the model is doing: waiting for it, streaming, retrying, or running tools.
import type { JobStatus } from '../../../src-shared/entities';
import type { UseJobStream } from '../hooks/useJobStream';
import { useT } from '../i18n';

interface Props extends UseJobStream {
  jobStatus: JobStatus | null;
}

export function JobProgress({ stream, movements, jobStatus }: Props) {
  const t = useT();
  const generating = jobStatus === 'running' && stream !== null;
  if (movements.length === 0 && !generating) return null;
  const current = jobStatus === 'running' ? movements.length - 1 : -1;
  return (
    <div className="job-progress" data-testid="job-progress">
      {movements.length > 0 ? (
        <ol className="movement-trail" aria-label={t('progress.movements')} data-testid="movement-trail">
          {movements.map((name, i) => (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: a movement can be entered again; its place is its identity.
              key={i}
              className={i === current ? 'movement movement-current' : 'movement'}
              data-testid="movement"
              aria-current={i === current ? 'step' : undefined}
            >
              {name}
            </li>
          ))}
        </ol>
      ) : null}
      {generating ? (
        <span className={`llm-state llm-state-${stream.llm}`} data-testid="llm-state" data-state={stream.llm}>
          {t(`progress.llm.${stream.llm}`)}
          {stream.llm === 'retrying' && stream.attempt > 1 ? t('progress.attempt', { attempt: stream.attempt }) : ''}
        </span>
      ) : null}
    </div>
  );
}
