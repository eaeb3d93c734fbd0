// What a card's buttons share (approval cards, the browser step card): one action at a time, the buttons disabled
// while it runs, and a refusal shown on the card ("message (code)").
import { useState } from 'react';
import type { ApiError } from '../api/client';

type Outcome = { ok: true } | { ok: false; error: ApiError };

export function useCardAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(action: () => Promise<Outcome>): Promise<void> {
    setBusy(true);
    setError(null);
    const outcome = await action();
    setBusy(false);
    if (!outcome.ok) setError(`${outcome.error.message} (${outcome.error.code})`);
  }
  return { busy, error, run };
}
