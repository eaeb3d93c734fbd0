// Migration 25: the tool-loop guard's counts (how often each call, a digest of its name and arguments, was made in the
// job's lineage) as one row a call, beside job_guards. They were a map inside the state's JSON, which grows with every
// new call and was rewritten whole at every step (turn 500 of a job rewrote 17 KB, checked as JSON by its CHECK, to
// count one call); now a step writes the counts it changed. States stored before keep their map in the JSON, read
// with these rows (the rows win). Gone with their job.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 25;
export const name = 'job-guard-calls';

export const sql = `
  CREATE TABLE job_guard_calls (
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    call TEXT NOT NULL CHECK (length(call) BETWEEN 1 AND 100),
    times INTEGER NOT NULL CHECK (times > 0),
    PRIMARY KEY (job_id, call)
  ) STRICT;
`;
