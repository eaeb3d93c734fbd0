// How the desktop's main process reaches the core, wherever it runs: `CoreConnection` is all the shell (IPC, tray,
// notifications) knows of it. Today the core runs in a utility process (shell/core-process.ts); the same interface
// can be met by a connection to a remote host later, or by the core in this process (inProcessCore, kept for the
// comparison the tests make). Also here: the core's side of each call (a Result with the error's code, the one
// mapping every transport of the desktop uses) and of the tray's attention.
import type { OperationName } from '../../src-shared/contract';
import { errorBody, MaestroError, type Result } from '../../src-shared/errors';
import type { MaestroEvent } from '../../src-shared/events';
import { storageErrorBody, storageFault } from '../db/storage-fault';
import type { AttentionItem } from '../events/attention';
import { type DesktopNotice, desktopNotice } from '../events/desktop-notices';
import type { Maestro } from './create-maestro';
import { loadSettings } from './settings-file';

/** The tray's list after a change, and the OS notification the change brings (before the window's own check). */
export interface AttentionUpdate {
  items: Pick<AttentionItem, 'taskId' | 'title' | 'detail'>[];
  notice: DesktopNotice | null;
}

export interface CoreConnection {
  /** The core's data dir (the folder the shell shows on request). */
  readonly dataDir: string;
  /** One contract operation; never throws: a failure is a Result with its code (`core_restarting` while it is down). */
  call(op: OperationName, input: unknown): Promise<Result<unknown>>;
  /** Every event of the core; returns the disposer. */
  onEvent(listener: (event: MaestroEvent) => void): () => void;
  onAttention(listener: (update: AttentionUpdate) => void): () => void;
  /** The turns being generated now (a window that joins mid-stream is sent them first). */
  liveEvents(): Promise<MaestroEvent[]>;
  /** Stops the core as asked (running jobs are persisted for its next start). */
  close(): Promise<void>;
}

/** Runs one operation on the core and answers a Result, as every desktop transport answers it. */
export async function answer(maestro: Maestro, op: OperationName, input: unknown): Promise<Result<unknown>> {
  try {
    return { ok: true, value: await maestro.invoke(op, input) };
  } catch (error) {
    // A locked, full or failing database: the same retryable code the bridge answers (nothing was written).
    const fault = storageFault(error);
    if (fault) return { ok: false, error: storageErrorBody(fault) };
    if (!(error instanceof MaestroError)) console.error(`${op} failed:`, error);
    return { ok: false, error: errorBody(error) };
  }
}

/**
 * The core's side of the tray and the notifications: the list, and for each notice what it would show to a window
 * that is not looking at its task (the window's own view is main's to check: hiddenByView). Returns the disposer.
 */
export function attentionUpdates(maestro: Maestro, listener: (update: AttentionUpdate) => void): () => void {
  const items = () => maestro.attention.list().map(({ taskId, title, detail }) => ({ taskId, title, detail }));
  listener({ items: items(), notice: null });
  return maestro.attention.onChange((notice) => {
    // Read per notice (a small file, a rare event), so a change in Settings applies to the next one; a broken file
    // means the defaults (Settings shows why).
    const prefs = loadSettings(maestro.ctx.dataDir).settings.notifications;
    const shown = notice ? desktopNotice(notice, { focused: false, viewingTaskId: null }, maestro.store, prefs) : null;
    listener({ items: items(), notice: shown });
  });
}

/** The core in this very process: what the desktop did before the utility process, kept to compare against. */
export function inProcessCore(maestro: Maestro): CoreConnection {
  return {
    dataDir: maestro.ctx.dataDir,
    call: (op, input) => answer(maestro, op, input),
    onEvent: (listener) => maestro.store.subscribe(listener),
    onAttention: (listener) => attentionUpdates(maestro, listener),
    liveEvents: async () => maestro.store.liveEvents(),
    close: () => maestro.close(),
  };
}
