// Migration 5: the Scheduler's state per schedule of <dataDir>/schedules.json: when it fires next, what it made last.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 5;
export const name = 'schedule-runs';

export const sql = `
  CREATE TABLE schedule_runs (
    schedule_id TEXT PRIMARY KEY,
    next_run_at INTEGER NOT NULL,
    last_run_at INTEGER,
    last_task_id TEXT REFERENCES tasks(id),
    last_error TEXT
  ) STRICT;
  `;
