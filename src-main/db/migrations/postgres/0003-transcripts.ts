// PostgreSQL migration 3 = SQLite migration 23: a task's transcript as the chunks appended to it, and the transcript
// kept at named points, for hosts that share the database.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 3;
export const name = 'transcripts';

export const sql = `
  CREATE TABLE transcript_chunks (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id),
    body TEXT COLLATE "C" NOT NULL CHECK (length(body) > 0),
    created_at BIGINT NOT NULL,
    rowid BIGINT GENERATED ALWAYS AS (seq) STORED
  );
  CREATE INDEX transcript_chunks_by_task ON transcript_chunks(task_id, seq);

  CREATE TABLE transcript_points (
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id),
    name TEXT COLLATE "C" NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    body TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    rowid BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (task_id, name)
  );
`;
