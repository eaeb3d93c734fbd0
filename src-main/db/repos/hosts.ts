// Repository of the hosts table: each host of a shared database says, every few seconds, that it is alive, which
// folders it serves and how many jobs it runs (GET /hosts).

import { iso } from '../ids';
import type { SqlDatabase } from '../sql';

interface HostRow {
  name: string;
  version: string;
  started_at: number;
  last_seen_at: number;
  serves: string;
  running: number;
}

export interface HostRecord {
  name: string;
  version: string;
  startedAt: string;
  lastSeenAt: string;
  serves: string[];
  running: number;
}

const rowToHost = (r: HostRow): HostRecord => ({
  name: r.name,
  version: r.version,
  startedAt: iso(r.started_at),
  lastSeenAt: iso(r.last_seen_at),
  serves: JSON.parse(r.serves) as string[],
  running: r.running,
});

export function createHostsRepo(db: SqlDatabase) {
  const upsert = db.prepare<{ name: string; version: string; now: number; serves: string; running: number }>(
    `INSERT INTO hosts (name, version, started_at, last_seen_at, serves, running)
     VALUES (@name, @version, @now, @now, @serves, @running)
     ON CONFLICT (name) DO UPDATE SET version = excluded.version, last_seen_at = excluded.last_seen_at,
       serves = excluded.serves, running = excluded.running`,
  );
  const started = db.prepare<[number, string]>('UPDATE hosts SET started_at = ? WHERE name = ?');
  const all = db.prepare<[], HostRow>('SELECT * FROM hosts ORDER BY name');
  return {
    /** This host is alive now; `restarted` when it has just started (its started_at moves). */
    seen(host: Omit<HostRecord, 'startedAt' | 'lastSeenAt'>, now = Date.now(), restarted = false): void {
      upsert.run({ ...host, now, serves: JSON.stringify(host.serves) });
      if (restarted) started.run(now, host.name);
    },
    list(): HostRecord[] {
      return all.all().map(rowToHost);
    },
  };
}
export type HostsRepo = ReturnType<typeof createHostsRepo>;
