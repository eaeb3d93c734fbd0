// Migration 20: Reflection jobs and lessons (P2.08). A job has a kind: `run` (the task's work, every job so far) or
// `reflection` (it looks back on the task's record and proposes lessons; never the task's status). lessons holds what
// Reflections proposed and what a person made of them; a lesson outlives its source task (the reference is cleared).
// A space may say when its tasks are reflected on by themselves (null: as the app's settings say).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 20;
export const name = 'reflection-lessons';

export const sql = `
  ALTER TABLE jobs ADD COLUMN kind TEXT NOT NULL DEFAULT 'run' CHECK (kind IN ('run', 'reflection'));
  CREATE INDEX jobs_by_task_kind ON jobs(task_id, kind, created_at);
  ALTER TABLE spaces ADD COLUMN reflection TEXT CHECK (reflection IN ('failures', 'always', 'off'));
  CREATE TABLE lessons (
    id TEXT PRIMARY KEY,
    text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 300),
    evidence TEXT NOT NULL CHECK (length(evidence) <= 500),
    status TEXT NOT NULL CHECK (status IN ('proposed', 'approved', 'dismissed', 'retired')),
    scope TEXT NOT NULL CHECK (scope IN ('workspace', 'piece', 'everywhere')),
    workspace_path TEXT NOT NULL,
    piece_id TEXT NOT NULL,
    source_task_id TEXT REFERENCES tasks(id) ON DELETE SET NULL,
    source_job_id TEXT REFERENCES jobs(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    decided_at INTEGER,
    last_used_at INTEGER,
    use_count INTEGER NOT NULL DEFAULT 0 CHECK (use_count >= 0)
  ) STRICT;
  CREATE INDEX lessons_by_status ON lessons(status, scope);
  CREATE INDEX lessons_by_task ON lessons(source_task_id, created_at);
  CREATE INDEX lessons_by_job ON lessons(source_job_id);
  `;
