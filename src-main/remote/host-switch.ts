// The CoreConnection the desktop's shell is given: this computer's core, or the remote host chosen in Settings →
// Hosts, switched at once. Operations and events go to the host shown; the tray, the notifications and the data
// folder stay this computer's (its core keeps running its own jobs while the window shows another host).
import type { CoreStatus } from '../../src-shared/preload-api';
import type { CoreConnection } from '../app/core-connection';

export type StatusSource = CoreConnection & { onStatus?(listener: (status: CoreStatus) => void): () => void };

export interface HostSwitch extends CoreConnection {
  onStatus(listener: (status: CoreStatus) => void): () => void;
  /** Shows `next` (null: this computer) and closes the remote host shown before, if any. */
  use(next: StatusSource | null): Promise<void>;
}

export function hostSwitch(local: StatusSource): HostSwitch {
  let remote: StatusSource | null = null;
  const shown = () => remote ?? local;
  const eventListeners = new Set<Parameters<CoreConnection['onEvent']>[0]>();
  const statusListeners = new Set<(status: CoreStatus) => void>();
  let status: CoreStatus = { state: 'running' };
  const setStatus = (next: CoreStatus) => {
    status = next;
    for (const listener of statusListeners) listener(next);
  };
  const follow = (source: StatusSource) => {
    const offEvents = source.onEvent((event) => {
      for (const listener of eventListeners) listener(event);
    });
    // A source without a status (the core in this very process) is always running.
    if (!source.onStatus) setStatus({ state: 'running' });
    const offStatus = source.onStatus?.(setStatus);
    return () => {
      offEvents();
      offStatus?.();
    };
  };
  let unfollow = follow(local);

  return {
    get dataDir() {
      return local.dataDir;
    },
    call: (op, input) => shown().call(op, input),
    liveEvents: () => shown().liveEvents(),
    onAttention: (listener) => local.onAttention(listener),
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onStatus(listener) {
      statusListeners.add(listener);
      listener(status);
      return () => statusListeners.delete(listener);
    },
    async use(next) {
      const before = remote;
      unfollow();
      remote = next;
      unfollow = follow(shown());
      if (before && before !== next) await before.close();
    },
    async close() {
      unfollow();
      await remote?.close();
      await local.close();
    },
  };
}
