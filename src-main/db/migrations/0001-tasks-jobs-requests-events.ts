// Migration 1: tasks, jobs, comments, tool and package requests, events; the enum CHECKs list the values of the
// first release. Frozen: never edited after it ships; a change is a new migration.

export const version = 1;
export const name = 'tasks-jobs-requests-events';

export const sql = `
  CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    instruction TEXT NOT NULL,
    piece_id TEXT NOT NULL,
    workspace_path TEXT NOT NULL,
    workspace_kind TEXT NOT NULL CHECK (workspace_kind IN ('persistent', 'ephemeral')),
    profile TEXT,
    parent_task_id TEXT REFERENCES tasks(id),
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX tasks_by_created ON tasks(created_at);

  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'waiting_human', 'waiting_subtasks', 'retry', 'succeeded', 'failed', 'cancelled')),
    wait_reason TEXT CHECK (wait_reason IN ('ask', 'tool_request', 'package_request', 'mcp_auth_required', 'browser')),
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
    CHECK ((status = 'waiting_human') = (wait_reason IS NOT NULL)),
    CHECK ((status = 'retry') = (next_retry_at IS NOT NULL))
  ) STRICT;
  CREATE INDEX jobs_by_status_created ON jobs(status, created_at);
  CREATE INDEX jobs_by_status_retry ON jobs(status, next_retry_at);
  CREATE INDEX jobs_by_task ON jobs(task_id, status);
  CREATE INDEX jobs_by_parent ON jobs(parent_job_id) WHERE parent_job_id IS NOT NULL;

  CREATE TABLE comments (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    job_id TEXT REFERENCES jobs(id),
    author TEXT NOT NULL CHECK (author IN ('user', 'agent', 'system')),
    kind TEXT NOT NULL CHECK (kind IN ('instruction', 'comment', 'interjection', 'question', 'answer', 'result', 'handoff', 'error')),
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    delivered_at INTEGER
  ) STRICT;
  CREATE INDEX comments_by_task ON comments(task_id, created_at);
  CREATE INDEX comments_undelivered ON comments(job_id) WHERE kind = 'interjection' AND delivered_at IS NULL;

  CREATE TABLE tool_requests (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    job_id TEXT NOT NULL REFERENCES jobs(id),
    call_id TEXT NOT NULL,
    tool TEXT NOT NULL,
    args_json TEXT NOT NULL,
    summary TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
    scope TEXT CHECK (scope IN ('once', 'task')),
    created_at INTEGER NOT NULL,
    decided_at INTEGER
  ) STRICT;
  CREATE INDEX tool_requests_by_task ON tool_requests(task_id, created_at);
  CREATE INDEX tool_requests_by_job ON tool_requests(job_id, status);

  CREATE TABLE package_requests (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    job_id TEXT NOT NULL REFERENCES jobs(id),
    call_id TEXT NOT NULL,
    manager TEXT NOT NULL CHECK (manager IN ('npm', 'pip')),
    name TEXT NOT NULL,
    version TEXT,
    reason TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
    created_at INTEGER NOT NULL,
    decided_at INTEGER
  ) STRICT;
  CREATE INDEX package_requests_by_task ON package_requests(task_id, created_at);
  CREATE INDEX package_requests_by_job ON package_requests(job_id, status);

  CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    ts INTEGER NOT NULL,
    type TEXT NOT NULL,
    task_id TEXT NOT NULL,
    job_id TEXT,
    payload TEXT NOT NULL
  ) STRICT;
  CREATE INDEX events_by_task ON events(task_id, seq);
  `;
