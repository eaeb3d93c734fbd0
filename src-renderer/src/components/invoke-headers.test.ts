// P9.18: "Send #N" counts UserSend Invokes only; the other kinds get their own header and do not advance N.
import { describe, expect, it } from 'vitest';
import { formatTokens, invokeHeaders } from './invoke-headers';

describe('Invoke headers', () => {
  it('numbers UserSend Invokes and names the others', () => {
    const kinds = ['UserSend', 'Notify', 'UserSend', 'PodEvent', 'SystemReminder', 'Wakeup', 'UserSend'] as const;
    expect(invokeHeaders(kinds.map((kind) => ({ kind })))).toEqual([
      'Send #1',
      'Notify',
      'Send #2',
      'Event',
      'Event',
      'Event',
      'Send #3',
    ]);
  });

  it('formats token counts compactly', () => {
    expect([0, 999, 1234, 56_789, 2_500_000].map(formatTokens)).toEqual(['0', '999', '1.2k', '57k', '2.5M']);
  });
});
