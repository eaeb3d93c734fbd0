// UsageChip: the task's usage as a chip in its header (the tokens so far and, when every call has a price, the $), whose popover holds the UsagePanel with
// its details opened: the details float over the chat instead of pushing the composer down, and a click elsewhere
// or Escape closes them (a native popover, so the browser gives the focus back to the chip).
import { type ToggleEvent, useId, useRef } from 'react';
import { useT } from '../hooks/useT';
import { useAppStore } from '../store/store';
import { selectTaskUsd } from '../store/usage-slice';
import { CostChip } from './CostChip';
import { formatTokens } from './invoke-headers';
import { UsagePanel } from './UsagePanel';

export function UsageChip({ taskId }: { taskId: string }) {
  const total = useAppStore((s) => (s.usage?.taskId === taskId ? s.usage.data?.total : undefined));
  const usd = useAppStore(selectTaskUsd(taskId));
  const popoverId = useId();
  const chipRef = useRef<HTMLButtonElement>(null);
  const t = useT();

  // Placed under the chip, its right edge on the chip's, before it shows (set on the element: no render between).
  function onBeforeToggle(e: ToggleEvent<HTMLDivElement>) {
    if (e.newState !== 'open') return;
    const chip = chipRef.current?.getBoundingClientRect();
    if (!chip) return;
    e.currentTarget.style.top = `${chip.bottom + 6}px`;
    e.currentTarget.style.right = `${Math.max(8, window.innerWidth - chip.right)}px`;
    // Opened to read the details: the panel's own fold (its <details>) opens with the popover.
    const fold = e.currentTarget.querySelector('details');
    if (fold && !fold.open) fold.open = true;
  }

  return (
    <>
      <button
        ref={chipRef}
        type="button"
        className="chip usage-chip"
        popoverTarget={popoverId}
        title={t('taskView.usageChipTitle')}
        data-testid="usage-chip"
      >
        {t('taskView.usageChip')}
        {total ? (
          <span className="chip-value">
            {t('taskView.usageTokens', { tokens: formatTokens(total.promptTokens + total.completionTokens) })}
          </span>
        ) : null}
        <CostChip usd={usd} testId="task-cost" />
      </button>
      <div
        id={popoverId}
        popover="auto"
        className="usage-popover"
        onBeforeToggle={onBeforeToggle}
        data-testid="usage-popover"
      >
        <UsagePanel taskId={taskId} />
      </div>
    </>
  );
}
