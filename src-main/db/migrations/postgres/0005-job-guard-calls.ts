// PostgreSQL migration 5 = SQLite migration 25: the tool-loop guard's counts as one row a call.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 5;
export const name = 'job-guard-calls';

export const sql = `
  CREATE TABLE job_guard_calls (
    job_id TEXT COLLATE "C" NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    call TEXT COLLATE "C" NOT NULL CHECK (length(call) BETWEEN 1 AND 100),
    times INTEGER NOT NULL CHECK (times > 0),
    rowid BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (job_id, call)
  );
`;
