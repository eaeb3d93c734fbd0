// StopJob: the composer's Stop, beside Send while the task's latest job works or is about to (issue 23): it cancels
// the job as the header's Cancel does; what streamed stays in the chat, marked stopped. Esc does the same (App).
import { useCallback, useContext, useState } from 'react';
import type { Job } from '../../../src-shared/entities';
import { useT } from '../hooks/useT';
import { translate } from '../i18n/translate';
import { selectDetailOf } from '../store/entity-selectors';
import { StoreContext } from '../store/store';

/** A job that generates, runs a tool, or waits for its turn to: one a person stops from where they type. */
export function canStop(job: Job | undefined): boolean {
  return job?.status === 'running' || job?.status === 'queued' || job?.status === 'retry';
}

/**
 * Stops the task's latest job when it can be stopped (a Stop or an Esc that comes after the job ended does nothing);
 * a refusal is said in a toast.
 */
export function useStopJob(): (taskId: string) => Promise<void> {
  const store = useContext(StoreContext);
  return useCallback(
    async (taskId: string) => {
      const state = store?.getState();
      if (!state || !canStop(selectDetailOf(state, taskId)?.jobs.at(-1))) return;
      const outcome = await state.cancelTask(taskId);
      if (outcome.ok) return;
      const text = translate(state.locale, 'composer.stopFailed', { error: outcome.error.message });
      state.pushToast({ tone: 'error', text, taskId });
    },
    [store],
  );
}

export function StopJob({ taskId, job }: { taskId: string; job: Job | undefined }) {
  const stopJob = useStopJob();
  const [busy, setBusy] = useState(false);
  const t = useT();
  if (!canStop(job)) return null;
  return (
    <button
      type="button"
      className="button composer-stop"
      disabled={busy}
      title={t('composer.stopTitle')}
      aria-keyshortcuts="Escape"
      onClick={async () => {
        setBusy(true);
        await stopJob(taskId);
        setBusy(false);
      }}
      data-testid="composer-stop"
    >
      {t('composer.stop')}
    </button>
  );
}
