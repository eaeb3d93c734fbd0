// Said once in the task when it has no checkpoints, with the host's reason ("git is not installed", the home folder):
// then nothing can be rewound and the files-changed view is empty. While the host's own comment saying so is loaded in
// the chat, it says it alone.
import { useT } from '../hooks/useT';
import { selectDetail } from '../store/entity-selectors';
import { useAppStore } from '../store/store';

export function CheckpointsOff({ taskId }: { taskId: string }) {
  const t = useT();
  const state = useAppStore((s) => (s.checkpoints?.taskId === taskId ? s.checkpoints.list.state : null));
  const said = useAppStore((s) => selectDetail(s)?.comments.some((c) => c.notice?.code === 'checkpoints_off') ?? false);
  if (!state || state.on || said) return null;
  return (
    <p className="notice checkpoints-off" role="note" data-testid="checkpoints-off">
      {state.note ? t('checkpoint.off', { note: state.note }) : t('checkpoint.offNoReason')}
    </p>
  );
}
