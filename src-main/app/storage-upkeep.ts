// Keeps the data dir in bounds (issue 28 point 4): finished tasks past Settings' retention lose what their log holds
// twice (events-repo compactTask), freed pages go back to the file system (incremental vacuum), and the WAL is
// truncated when no job runs. Runs when the host is idle and on "Clean up now"; its figures are shown in Settings.
import fs from 'node:fs';
import path from 'node:path';
import type { OpOutput } from '../../src-shared/contract';
import type { RetentionSettings } from '../../src-shared/settings';
import { checkpointsDir } from '../checkpoints/locate';
import type { Store } from '../db/store';

const DAY_MS = 24 * 3600 * 1000;
/** Tasks looked at per turn of the event loop: each is one short transaction. */
const BATCH = 100;
/** How often an idle host looks again. */
export const UPKEEP_INTERVAL_MS = 10 * 60 * 1000;
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

export interface UpkeepResult {
  /** Tasks whose log lost superseded events. */
  tasks: number;
  events: number;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Bytes of the files below `dir` (0 when it does not exist), read without blocking the event loop for long. */
async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await treeBytes(file);
    else if (entry.isFile())
      total += await fs.promises.stat(file).then(
        (s) => s.size,
        () => 0,
      );
  }
  return total;
}

const fileBytes = (file: string) => {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
};

export class StorageUpkeep {
  private running: Promise<UpkeepResult> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly dbFile: string,
    private readonly settings: () => RetentionSettings,
  ) {}

  /** Looks every `intervalMs` (the first time after one interval), doing the work only while no job runs. */
  start(intervalMs = UPKEEP_INTERVAL_MS): this {
    this.timer = setInterval(() => {
      if (!this.idle()) return;
      this.run().catch((error) => console.error('storage upkeep failed:', (error as Error).message));
    }, intervalMs);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /**
   * The retention pass, then the vacuum and the WAL; one at a time (a second call joins the first). `convert`: a file
   * made before incremental vacuum becomes one (a VACUUM, which rewrites the whole file and holds the event loop for
   * as long: only when a person asked, with "Clean up now").
   */
  run(now = Date.now(), { convert = false } = {}): Promise<UpkeepResult> {
    this.running ??= this.pass(now, convert).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** What the data dir takes, by part. */
  async usage(): Promise<OpOutput<'getStorageUsage'>> {
    const database = fileBytes(this.dbFile);
    const wal = fileBytes(`${this.dbFile}-wal`);
    const { free } = this.pages();
    const runs = await treeBytes(path.join(this.dataDir, 'runs'));
    const checkpoints = await treeBytes(checkpointsDir(this.dataDir));
    return {
      dataDir: this.dataDir,
      database,
      wal,
      free,
      runs,
      checkpoints,
      total: database + wal + runs + checkpoints,
      tasks: this.store.tasks.count(),
    };
  }

  private idle(): boolean {
    return this.store.jobs.staleRunning(Number.MAX_SAFE_INTEGER).length === 0;
  }

  private pages(): { free: number } {
    const db = this.store.sqlite;
    if (!db) return { free: 0 };
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    return { free: Number(db.pragma('freelist_count', { simple: true })) * pageSize };
  }

  private async pass(now: number, convert: boolean): Promise<UpkeepResult> {
    const result = await this.compact(now);
    // PostgreSQL's own autovacuum gives space back there; the file-level upkeep below is SQLite's.
    const db = this.store.sqlite;
    if (!db) return result;
    if (Number(db.pragma('auto_vacuum', { simple: true })) === 2) db.pragma('incremental_vacuum');
    else if (convert) {
      db.pragma('auto_vacuum = INCREMENTAL');
      db.exec('VACUUM');
    }
    if (this.idle()) db.pragma('wal_checkpoint(TRUNCATE)');
    return result;
  }

  /** Compacts each finished task past retention, one transaction per task, yielding between batches. */
  private async compact(now: number): Promise<UpkeepResult> {
    const { activityDays } = this.settings();
    const result: UpkeepResult = { tasks: 0, events: 0 };
    if (activityDays === 0) return result;
    const cutoff = now - activityDays * DAY_MS;
    let after = '';
    for (;;) {
      const ids = this.store.tasks.idsAfter(after, BATCH);
      for (const taskId of ids) {
        const jobs = this.store.jobs.listForTask(taskId);
        if (jobs.length === 0 || !jobs.every((j) => TERMINAL.has(j.status) && Date.parse(j.updatedAt) < cutoff))
          continue;
        const dropped = this.store.transact(() => this.store.events.compactTask(taskId));
        if (dropped > 0) {
          result.tasks++;
          result.events += dropped;
        }
      }
      if (ids.length < BATCH) return result;
      after = ids.at(-1) as string;
      await nextTurn();
    }
  }
}
