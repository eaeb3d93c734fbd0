// This host among the others of its database: the folders it runs jobs in, and — on a database several hosts share —
// a row in `hosts` refreshed every few seconds with how many jobs it runs (GET /hosts).
import fs from 'node:fs';
import path from 'node:path';
import type { HostRecord } from '../db/repos/hosts';
import type { Store } from '../db/store';

export interface HostPresenceOptions {
  name: string;
  version: string;
  dataDir: string;
  /** The folders given with --serves; null: the default workspace and the existing folders of the spaces. */
  serves: readonly string[] | null;
  defaultWorkspace: () => string | null;
  running: () => number;
  intervalMs?: number;
}

export class HostPresence {
  private timer: NodeJS.Timeout | null = null;
  private current: string[] = [];

  constructor(
    private readonly store: Store,
    private readonly o: HostPresenceOptions,
  ) {
    this.current = this.compute();
  }

  /**
   * The workspace folders this host runs jobs in (a task's folder is one of them or below one): the --serves folders,
   * else its default workspace and the spaces' folders that exist here; always its own ephemeral workspaces.
   */
  folders(): readonly string[] {
    return this.current;
  }

  /** This host as GET /hosts shows it. */
  self(now = Date.now()): Omit<HostRecord, 'startedAt'> {
    return {
      name: this.o.name,
      version: this.o.version,
      lastSeenAt: new Date(now).toISOString(),
      serves: [...this.current],
      running: this.o.running(),
    };
  }

  /** On a shared database: the row now, then every few seconds (the folders looked at again each time). */
  start(): void {
    if (!this.store.shared || this.timer) return;
    this.beat(true);
    this.timer = setInterval(() => this.beat(false), this.o.intervalMs ?? 5_000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.store.shared && this.store.db.open) this.beat(false);
  }

  private beat(restarted: boolean): void {
    this.current = this.compute();
    try {
      const { lastSeenAt: _, ...host } = this.self();
      this.store.hosts.seen(host, Date.now(), restarted);
    } catch (error) {
      // The database is away: the Worker's own alarm says so; the row is written again at the next beat.
      if (restarted) console.warn('MAESTRO: this host could not say it is alive:', error);
    }
  }

  private compute(): string[] {
    const folders = new Set<string>([path.join(this.o.dataDir, 'workspaces')]);
    if (this.o.serves) for (const folder of this.o.serves) folders.add(path.resolve(folder));
    else {
      const fallback = this.o.defaultWorkspace();
      if (fallback) folders.add(fallback);
      try {
        for (const space of this.store.spaces.list())
          if (space.folder && isFolder(space.folder)) folders.add(space.folder);
      } catch (error) {
        // Keeps the folders it had; the database being away is the Worker's to report.
        console.warn('MAESTRO: the spaces’ folders could not be read:', error instanceof Error ? error.message : error);
        return this.current;
      }
    }
    return [...folders].sort();
  }
}

function isFolder(folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory();
  } catch {
    return false;
  }
}
