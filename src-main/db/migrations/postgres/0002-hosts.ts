// PostgreSQL migration 2 = SQLite migration 22: a job names the host that ran or runs it, and each host says it is
// alive, which folders it serves and how many jobs it runs.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 2;
export const name = 'hosts';

export const sql = `
  ALTER TABLE jobs ADD COLUMN host TEXT COLLATE "C";

  CREATE TABLE hosts (
    name TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    version TEXT COLLATE "C" NOT NULL,
    started_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    serves TEXT COLLATE "C" NOT NULL DEFAULT '[]' CHECK (json_valid(serves) AND json_type(serves) = 'array'),
    running INTEGER NOT NULL DEFAULT 0 CHECK (running >= 0),
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );
`;
