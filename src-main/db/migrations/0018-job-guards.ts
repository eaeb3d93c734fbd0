// Migration 18: the loop guards' state of each job (engine/guards/: movements entered, each movement's visits, the
// current movement's iterations and text-only replies, the repeated-call counts) kept beside the job, so a park, a
// retry or a restart continues the count. One JSON object a job, checked as JSON here and by zod where it is read;
// it goes with its job.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 18;
export const name = 'job-guards';

export const sql = `
  CREATE TABLE job_guards (
    job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    state TEXT NOT NULL CHECK (json_valid(state) AND json_type(state) = 'object'),
    updated_at INTEGER NOT NULL
  ) STRICT;
  `;
