// Migration 22: several hosts on one database (issue 25 point 3). A job names the host that ran or runs it (null
// while queued), and each host says it is alive, which folders it serves and how many jobs it runs (GET /hosts).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 22;
export const name = 'hosts';

export const sql = `
  ALTER TABLE jobs ADD COLUMN host TEXT;

  CREATE TABLE hosts (
    name TEXT PRIMARY KEY NOT NULL,
    version TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    serves TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(serves) AND json_type(serves) = 'array'),
    running INTEGER NOT NULL DEFAULT 0 CHECK (running >= 0)
  ) STRICT;
`;
