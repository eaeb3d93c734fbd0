// A cost as the UI shows it: $ rounded for people (src-shared/pricing.ts formats it), or nothing at all when a model
// in the sum has no price — never a "$0.00" that is not known.
import { formatUsd } from '../../../src-shared/pricing';
import { useLocale, useT } from '../hooks/useT';

interface Props {
  usd: number | null;
  /** The visible text around the amount (e.g. "job {usd}"); absent: the amount alone. */
  label?: (usd: string) => string;
  title?: string;
  testId?: string;
}

export function CostChip({ usd, label, title, testId }: Props) {
  const locale = useLocale();
  const t = useT();
  if (usd === null) return null;
  const amount = formatUsd(usd, locale);
  return (
    <span className="cost-chip" data-testid={testId} data-usd={usd} title={title ?? t('cost.titleMixed')}>
      {label ? label(amount) : amount}
    </span>
  );
}
