// WAL checkpoints off the event loop. SQLite's own (wal_autocheckpoint) runs inside the commit that takes the WAL past
// 1,000 frames: that commit copies the frames back into the database file and fsyncs it, holding the main thread —
// every job's stream, the bridge, the UI — for milliseconds, once every hundred or so steps of a running job. Here a
// worker thread with a connection of its own checkpoints instead, PASSIVE (it never waits for the writer, which goes
// on appending meanwhile), when the WAL holds that many frames not yet copied back: SQLite's own threshold, read from
// the wal-index header in the -shm file (https://www.sqlite.org/walformat.html, §2.2: mxFrame and nBackfill). The
// main connection keeps a checkpoint of its own, four times further out, so a thread that is slow, crashed or gone
// never lets the WAL grow without bound. The thread starts at the first checkpoint due: a short-lived host starts none.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

/** Frames in the WAL not yet copied back that make a checkpoint due: SQLite's default wal_autocheckpoint. */
export const CHECKPOINT_FRAMES = 1000;
/**
 * The main connection's own wal_autocheckpoint while the thread does the work, for when it falls behind (a burst of
 * writes between two polls): about the 16 MB journal_size_limit at 4 KB pages (connection.ts), so the WAL file stays
 * within it, and no checkpoint left to the main thread is more than four times SQLite's own.
 */
export const SAFETY_NET_FRAMES = 4 * CHECKPOINT_FRAMES;
/** How often the wal-index header is read. */
const POLL_MS = 250;
/** Past this many crashes of the thread, the main connection checkpoints as SQLite does by default. */
const MAX_CRASHES = 3;
/** How long close waits for the thread to close its connection before it is stopped. */
const CLOSE_MS = 5000;

/** The thread's code: CommonJS, evaluated, better-sqlite3 required by the path this module resolved. */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.modulePath);
const db = new Database(workerData.file, { fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) });
parentPort.on('message', ({ close }) => {
  if (close) {
    db.close();
    parentPort.close();
    return;
  }
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ frames: result.checkpointed });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
`;

/** The wal-index header's first bytes: through nBackfill (offset 96) of the checkpoint info that follows it. */
export const HEADER_BYTES = 100;

/** Frames in the WAL not yet copied back, from the -shm file's header (written in the machine's byte order). */
export function pendingFrames(header: Buffer): number {
  const u32 = (offset: number) =>
    os.endianness() === 'LE' ? header.readUInt32LE(offset) : header.readUInt32BE(offset);
  return u32(16) - u32(96);
}

export interface WalCheckpointerOptions {
  /** Path of a better_sqlite3.node built for the running ABI (Electron builds its own). */
  nativeBinding?: string;
  /** Frames not yet copied back that make a checkpoint due (tests make it small). */
  dueFrames?: number;
  pollMs?: number;
}

export class WalCheckpointer {
  private thread: Worker | null = null;
  private timer: NodeJS.Timeout | undefined;
  private readonly pollMs: number;
  private inFlight = false;
  private closing: Promise<void> | null = null;
  private readonly dueFrames: number;
  /** What the thread did and how often it was lost (what the tests look at). */
  readonly done = { checkpoints: 0, frames: 0, crashes: 0, failures: 0 };

  constructor(
    private readonly db: Database,
    private readonly options: WalCheckpointerOptions = {},
  ) {
    this.dueFrames = options.dueFrames ?? CHECKPOINT_FRAMES;
    this.pollMs = options.pollMs ?? POLL_MS;
    db.pragma(`wal_autocheckpoint = ${SAFETY_NET_FRAMES}`);
    this.schedule();
  }

  /** Whether the thread is doing the checkpoints (false once it crashed too often: then SQLite does them). */
  get active(): boolean {
    return this.done.crashes < MAX_CRASHES && this.closing === null;
  }

  /** Stops checkpointing; resolves once the thread has closed its connection (at once when none was started). */
  close(): Promise<void> | undefined {
    clearTimeout(this.timer);
    const thread = this.thread;
    if (!thread) {
      this.closing ??= Promise.resolve();
      return undefined;
    }
    this.closing ??= new Promise<void>((resolve) => {
      const stop = setTimeout(() => void thread.terminate(), CLOSE_MS);
      thread.once('exit', () => {
        clearTimeout(stop);
        resolve();
      });
      thread.postMessage({ close: true });
    });
    return this.closing;
  }

  /** The next poll, one at a time, while the thread is in use (not once it is closed or lost for good). */
  private schedule(): void {
    if (!this.active) return;
    this.timer = setTimeout(() => this.poll(), this.pollMs);
    this.timer.unref();
  }

  /** Reads the wal-index header (off this thread) and asks for a checkpoint when one is due. */
  private poll(): void {
    if (this.inFlight) {
      this.schedule();
      return;
    }
    fs.open(`${this.db.name}-shm`, 'r', (openError, fd) => {
      if (openError) {
        this.schedule();
        return;
      }
      const header = Buffer.alloc(HEADER_BYTES);
      fs.read(fd, header, 0, HEADER_BYTES, 0, (readError, bytes) => {
        fs.close(fd, () => {});
        if (!readError && bytes === HEADER_BYTES && this.active && pendingFrames(header) >= this.dueFrames) {
          this.checkpoint();
        }
        this.schedule();
      });
    });
  }

  private checkpoint(): void {
    const thread = this.start();
    if (!thread) return;
    this.inFlight = true;
    thread.ref();
    thread.postMessage({});
  }

  private start(): Worker | null {
    if (this.thread) return this.thread;
    let thread: Worker;
    try {
      thread = new Worker(WORKER, {
        eval: true,
        workerData: {
          modulePath: createRequire(__filename).resolve('better-sqlite3'),
          file: this.db.name,
          nativeBinding: this.options.nativeBinding,
        },
      });
    } catch (error) {
      console.error('the WAL checkpoint thread could not start:', error);
      this.lost();
      return null;
    }
    thread.unref();
    thread.on('message', (answer: { frames?: number; error?: string }) => {
      this.inFlight = false;
      thread.unref();
      if (answer.error !== undefined) {
        this.done.failures++;
        return;
      }
      this.done.checkpoints++;
      this.done.frames += answer.frames ?? 0;
    });
    thread.on('error', (error) => console.error('the WAL checkpoint thread failed:', error));
    thread.on('exit', () => {
      if (this.thread === thread) this.thread = null;
      this.inFlight = false;
      if (!this.closing) this.lost();
    });
    this.thread = thread;
    return thread;
  }

  /** A thread lost: the next checkpoint due starts another, up to MAX_CRASHES; then SQLite checkpoints as by default. */
  private lost(): void {
    this.done.crashes++;
    if (!this.active && this.db.open) this.db.pragma(`wal_autocheckpoint = ${CHECKPOINT_FRAMES}`);
  }
}
