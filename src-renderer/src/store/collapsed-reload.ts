// Reloading something of the selected task that the host takes a while to answer (its usage, its checkpoints):
// reloads asked for while one is in flight collapse into one more after it, and follow one another at most every
// RELOAD_GAP_MS, so a job streaming meanwhile never waits behind them after every turn or step.
export const RELOAD_GAP_MS = 2000;

/** `load(key)` run one at a time per key; `wanted(key)`: whether another run is still worth making (the key shown). */
export function collapsedReload(
  load: (key: string) => Promise<void>,
  wanted: (key: string) => boolean,
): (key: string) => Promise<void> {
  // Per key: a load is in flight, and whether another was asked for meanwhile. Kept out of the store on purpose.
  const inFlight = new Map<string, { again: boolean }>();
  return async (key) => {
    if (!wanted(key)) return;
    const running = inFlight.get(key);
    if (running) {
      running.again = true;
      return;
    }
    const marker = { again: false };
    inFlight.set(key, marker);
    try {
      do {
        marker.again = false;
        await load(key);
        if (marker.again) await new Promise((resolve) => setTimeout(resolve, RELOAD_GAP_MS));
      } while (marker.again && wanted(key));
    } finally {
      inFlight.delete(key);
    }
  };
}
