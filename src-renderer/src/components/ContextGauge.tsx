// The context gauge beside the composer: the last call's prompt tokens against the model's context window, as the
// server's model list or else the profile states it. An unknown window shows nothing: a guessed gauge would mislead.
import { useLocale, useT } from '../hooks/useT';
import { useAppStore } from '../store/store';

/** Past these shares of the window the bar warns, then alarms (a long task nears summarising or refusing). */
const WARN_AT = 0.7;
const ALARM_AT = 0.9;

export function ContextGauge({ taskId }: { taskId: string }) {
  const gauge = useAppStore((s) => (s.contextGauge?.taskId === taskId ? s.contextGauge.gauge : null));
  const locale = useLocale();
  const t = useT();
  if (!gauge) return null;
  const ratio = Math.min(gauge.promptTokens / gauge.contextWindow, 1);
  const percent = Math.round(ratio * 100);
  const numbers = new Intl.NumberFormat(locale);
  const label = t('gauge.label', {
    prompt: numbers.format(gauge.promptTokens),
    window: numbers.format(gauge.contextWindow),
    percent,
    model: gauge.model,
  });
  const source = t(gauge.source === 'server' ? 'gauge.sourceServer' : 'gauge.sourceProfile');
  return (
    <div
      className="context-gauge"
      title={`${label} — ${source}`}
      data-testid="context-gauge"
      data-ratio={ratio}
      data-source={gauge.source}
    >
      {/* low/high/optimum: Chromium colours the bar fine, then warning, then alarm, as the window fills. */}
      <meter
        className="context-gauge-meter"
        min={0}
        max={gauge.contextWindow}
        low={gauge.contextWindow * WARN_AT}
        high={gauge.contextWindow * ALARM_AT}
        optimum={0}
        value={Math.min(gauge.promptTokens, gauge.contextWindow)}
        aria-label={label}
        data-testid="context-gauge-meter"
      />
      <span className="context-gauge-percent" aria-hidden="true">
        {percent}%
      </span>
    </div>
  );
}
