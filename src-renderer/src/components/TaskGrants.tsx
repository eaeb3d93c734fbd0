// The selected task's grants in force — what a person approved "for this task" and what each covers — each with
// Revoke: from the next call on it covers nothing and such calls ask again. Nothing is shown while there are none.
import { useEffect, useState } from 'react';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { grantWords } from './grant-words';

export function TaskGrants({ taskId }: { taskId: string }) {
  const t = useT();
  const grants = useAppStore((s) => (s.grants?.taskId === taskId ? s.grants.list : null));
  const refresh = useAppStore((s) => s.refreshGrants);
  const revoke = useAppStore((s) => s.revokeGrant);
  const approvedForTask = useAppStore((s) =>
    s.entities.requests?.taskId === taskId ? s.entities.requests.tool.filter((r) => r.scope === 'task').length : 0,
  );
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the number of approvals for the task says when to look again
  useEffect(() => {
    void refresh(taskId);
  }, [taskId, approvedForTask, refresh]);

  const active = (grants ?? []).filter((g) => g.revokedAt === null);
  if (active.length === 0 && error === null) return null;
  return (
    <section className="task-grants" aria-label={t('grant.list.title')} data-testid="task-grants">
      <h3 className="task-grants-title">{t('grant.list.title')}</h3>
      <ul className="stack-list">
        {active.map((g) => {
          const what = grantWords(t, g);
          return (
            <li key={g.id} className="task-grant" data-testid="task-grant" data-kind={g.kind} data-tool={g.tool}>
              <span className="task-grant-words">{what}</span>
              <button
                type="button"
                className="button"
                disabled={busy === g.id}
                aria-label={t('grant.list.revokeLabel', { what })}
                onClick={async () => {
                  setBusy(g.id);
                  setError(null);
                  const outcome = await revoke(taskId, g.id);
                  setBusy(null);
                  if (!outcome.ok) setError(t('grant.list.revokeFailed', { message: outcome.error.message }));
                }}
                data-testid="task-grant-revoke"
              >
                {t('grant.list.revoke')}
              </button>
            </li>
          );
        })}
      </ul>
      {error ? (
        <p className="notice notice-error" data-testid="task-grants-error">
          {error}
        </p>
      ) : null}
    </section>
  );
}
