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
  /** The folders given with --serves; null: the default workspace and the spaces' folders that exist here. */
  serves: readonly string[] | null;
  defaultWorkspace: () => string | null;
  running: () => number;
  intervalMs?: number;
}

/** How long whether a folder exists here is taken as known. */
const EXISTS_MS = 5_000;

export class HostPresence {
  private timer: NodeJS.Timeout | null = null;
  private last: string[] = [];
  private readonly exists = new Map<string, { at: number; yes: boolean }>();
  /** When this host last said it is alive (on a shared database: its last beat; alone: when it started). */
  private seenAt = Date.now();

  constructor(
    private readonly store: Store,
    private readonly o: HostPresenceOptions,
  ) {}

  /**
   * The workspace folders this host runs jobs in now (a task's folder is one of them or below one): the --serves
   * folders, else its default workspace and the spaces' folders that exist on this machine — a space made a moment
   * ago on this host included, so its first task is claimed here at once; always its own ephemeral workspaces.
   */
  folders(now = Date.now()): readonly string[] {
    const folders = new Set<string>([path.join(this.o.dataDir, 'workspaces')]);
    if (this.o.serves) for (const folder of this.o.serves) folders.add(path.resolve(folder));
    else {
      const fallback = this.o.defaultWorkspace();
      if (fallback) folders.add(fallback);
      try {
        for (const folder of this.store.spaces.folders()) if (this.existsHere(folder, now)) folders.add(folder);
      } catch {
        // The database is away (the Worker's alarm says so): the folders last seen.
        return this.last;
      }
    }
    this.last = [...folders].sort();
    return this.last;
  }

  /** This host as GET /hosts shows it. */
  self(): Omit<HostRecord, 'startedAt'> {
    return {
      name: this.o.name,
      version: this.o.version,
      lastSeenAt: new Date(this.seenAt).toISOString(),
      serves: [...this.folders()],
      running: this.o.running(),
    };
  }

  /** On a shared database: the row now, then every few seconds. */
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
    this.seenAt = Date.now();
    try {
      const { lastSeenAt: _, ...host } = this.self();
      this.store.hosts.seen(host, Date.now(), restarted);
    } catch (error) {
      // The database is away: the Worker's own alarm says so; the row is written again at the next beat.
      if (restarted) console.warn('MAESTRO: this host could not say it is alive:', error);
    }
  }

  private existsHere(folder: string, now: number): boolean {
    const known = this.exists.get(folder);
    if (known && now - known.at < EXISTS_MS) return known.yes;
    let yes = false;
    try {
      yes = fs.statSync(folder).isDirectory();
    } catch {
      // Not on this machine.
    }
    this.exists.set(folder, { at: now, yes });
    return yes;
  }
}
