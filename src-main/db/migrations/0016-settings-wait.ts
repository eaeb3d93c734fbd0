// Migration 16: a job can wait for a person to review the settings files of its folder (`wait_reason = 'settings'`,
// before it starts). SQLite cannot change a CHECK in place, so `jobs` is rebuilt with the same columns, rows and
// indexes. Foreign keys stay on (the runner's transaction cannot turn them off), so they are deferred to the commit:
// the rows referring to jobs (comments, requests, log entries, jobs themselves) find theirs again by then, and the
// A2A tasks that dropping `jobs` deletes by their ON DELETE CASCADE are put back as they were.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 16;
export const name = 'settings-wait';

export const sql = `
  PRAGMA defer_foreign_keys = ON;
  CREATE TEMP TABLE jobs_before_16 AS SELECT * FROM jobs;
  CREATE TEMP TABLE a2a_tasks_before_16 AS SELECT * FROM a2a_tasks;
  DROP TABLE jobs;

  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'waiting_human', 'waiting_subtasks', 'retry', 'succeeded', 'failed', 'cancelled')),
    wait_reason TEXT CHECK (wait_reason IN ('ask', 'tool_request', 'package_request', 'mcp_auth_required', 'browser', 'settings')),
    piece_id TEXT NOT NULL,
    profile TEXT,
    resume_movement TEXT,
    ask_count INTEGER NOT NULL DEFAULT 0,
    attempt INTEGER NOT NULL DEFAULT 0,
    next_retry_at INTEGER,
    continued_from_job_id TEXT REFERENCES jobs(id),
    parent_job_id TEXT REFERENCES jobs(id),
    pending_invoke TEXT CHECK (pending_invoke IN ('UserSend', 'Notify', 'PodEvent', 'SystemReminder', 'Wakeup')),
    worker_id TEXT,
    heartbeat_at INTEGER,
    started_at INTEGER,
    finished_at INTEGER,
    error TEXT,
    result TEXT,
    error_code TEXT,
    CHECK ((status = 'waiting_human') = (wait_reason IS NOT NULL)),
    CHECK ((status = 'retry') = (next_retry_at IS NOT NULL))
  ) STRICT;
  INSERT INTO jobs SELECT * FROM temp.jobs_before_16;
  INSERT INTO a2a_tasks SELECT * FROM temp.a2a_tasks_before_16;
  DROP TABLE temp.jobs_before_16;
  DROP TABLE temp.a2a_tasks_before_16;

  CREATE INDEX jobs_by_status_created ON jobs(status, created_at);
  CREATE INDEX jobs_by_status_retry ON jobs(status, next_retry_at);
  CREATE INDEX jobs_by_task ON jobs(task_id, status);
  CREATE INDEX jobs_by_parent ON jobs(parent_job_id) WHERE parent_job_id IS NOT NULL;
  `;
