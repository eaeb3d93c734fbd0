// Invoke headers as the TUI names them (P9.18): "Send #N" counts only UserSend Invokes; Notify and the other kinds
// (PodEvent, SystemReminder, Wakeup) show their own header and do not advance N.
import type { InvokeKind } from '../../../src-shared/events';
import { english, type Translate } from '../i18n/translate';

export function invokeHeaders(invokes: readonly { kind: InvokeKind }[], t: Translate = english): string[] {
  const sends = sendNumbers(invokes);
  return invokes.map(({ kind }, i) => {
    switch (kind) {
      case 'UserSend':
        return t('invoke.send', { n: sends[i] ?? 0 });
      case 'Notify':
        return t('invoke.notify');
      case 'PodEvent':
      case 'SystemReminder':
      case 'Wakeup':
        return t('invoke.event');
      default: {
        const unknown: never = kind;
        throw new Error(`unknown Invoke kind ${String(unknown)}`);
      }
    }
  });
}

/** The N of each UserSend Invoke ("Send #N", what rewind and fork name it by); null for the other kinds. */
export function sendNumbers(invokes: readonly { kind: InvokeKind }[]): (number | null)[] {
  let sends = 0;
  return invokes.map(({ kind }) => (kind === 'UserSend' ? ++sends : null));
}

/** A token count for a narrow column: 950, 12.3k, 4.1M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
