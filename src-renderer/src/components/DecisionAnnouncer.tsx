// DecisionAnnouncer: a polite live region that says, when an approval card or the agent's question appears, what it
// is and which key goes to it (hooks/shortcuts.ts `focusDecision`), so a person who is not looking at the composer,
// or cannot see it, learns that the task waits for them. Empty while nothing waits; it stays in the page so that a
// screen reader hears the change.
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import { shortcutKeys } from '../hooks/shortcuts';
import { IS_MAC } from '../hooks/useShortcuts';
import { useT } from '../hooks/useT';
import type { Translate } from '../i18n';
import { selectDetailOf } from '../store/entity-selectors';
import { type PendingRequests, pendingRequests } from '../store/requests-slice';
import { useAppStore } from '../store/store';
import { openQuestion } from './composer-mode';

/** What the region says for the pending decisions (tool and package requests first, then an open question). */
export function announcement(pending: PendingRequests, question: string | null, t: Translate): string {
  const keys = shortcutKeys('focusDecision', IS_MAC);
  const [tool] = pending.tool;
  const [pkg] = pending.package;
  const more = pending.tool.length + pending.package.length - 1;
  const first = tool
    ? t('announce.tool', { tool: untrustedLine(tool.tool, 80), keys })
    : pkg
      ? t('announce.package', { name: untrustedLine(pkg.name, 80), keys })
      : null;
  if (first) return more > 0 ? `${first} ${t('announce.more', { count: more })}` : first;
  return question === null ? '' : t('announce.question', { question: untrustedLine(question, 200), keys });
}

export function DecisionAnnouncer({ taskId }: { taskId: string }) {
  const { requests, jobs, comments } = useAppStore(
    useShallow((s) => ({
      requests: s.entities.requests?.taskId === taskId ? s.entities.requests : null,
      jobs: selectDetailOf(s, taskId)?.jobs ?? NONE,
      comments: selectDetailOf(s, taskId)?.comments ?? NONE,
    })),
  );
  const t = useT();
  const text = useMemo(() => {
    const question = openQuestion(jobs.at(-1), comments);
    return announcement(pendingRequests(requests, jobs), question?.body ?? null, t);
  }, [requests, jobs, comments, t]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" data-testid="decision-announcer">
      {text}
    </div>
  );
}

const NONE: never[] = [];
