// "Committed abc1234" on a job's result: the workspace commit the succeeded job made of the files it changed (P2.21),
// from its checkpoints. When a commit was skipped, the host says why in a system comment of the chat.
import { useT } from '../i18n';
import { selectCheckpointIndex } from '../store/checkpoint-index';
import { useAppStore } from '../store/store';

export function JobCommit({ jobId }: { jobId: string }) {
  const t = useT();
  const hash = useAppStore((s) => selectCheckpointIndex(s).commits.get(jobId));
  if (!hash) return null;
  return (
    <p className="job-commit" data-testid="job-commit" data-commit={hash} title={t('checkpoint.commitTitle', { hash })}>
      {t('checkpoint.commit', { hash })}
    </p>
  );
}
