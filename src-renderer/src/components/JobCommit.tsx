// "Committed abc1234" on a job's result: the workspace commit the succeeded job made of the files it changed (P2.21),
// from its checkpoints. The host also says so (or why the commit was skipped) in a system comment: while that comment
// is loaded in the chat, it says it alone.
import { useT } from '../hooks/useT';
import { selectCheckpointIndex } from '../store/checkpoint-index';
import { selectDetail } from '../store/entity-selectors';
import { useAppStore } from '../store/store';

export function JobCommit({ jobId }: { jobId: string }) {
  const t = useT();
  const hash = useAppStore((s) => selectCheckpointIndex(s).commits.get(jobId));
  const said = useAppStore(
    (s) =>
      selectDetail(s)?.comments.some(
        (c) => c.jobId === jobId && c.notice?.code === 'workspace_commit' && c.notice.hash,
      ) ?? false,
  );
  if (!hash || said) return null;
  return (
    <p className="job-commit" data-testid="job-commit" data-commit={hash} title={t('checkpoint.commitTitle', { hash })}>
      {t('checkpoint.commit', { hash })}
    </p>
  );
}
