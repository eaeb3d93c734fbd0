// Numbered schema migrations applied on PRAGMA user_version; each runs in its own transaction.
import type { Database } from 'better-sqlite3';
import {
  COMMENT_AUTHORS,
  COMMENT_KINDS,
  JOB_STATUSES,
  REQUEST_STATUSES,
  WAIT_REASONS,
} from '../../src-shared/entities';
import { CodedError } from '../../src-shared/errors';
import { INVOKE_KINDS } from '../../src-shared/events';

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

export const MIGRATIONS: readonly string[] = [
  // 1: tasks, comments, jobs, tool and package requests, events.
  `
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
    status TEXT NOT NULL CHECK (status IN (${list(JOB_STATUSES)})),
    wait_reason TEXT CHECK (wait_reason IN (${list(WAIT_REASONS)})),
    piece_id TEXT NOT NULL,
    profile TEXT,
    resume_movement TEXT,
    ask_count INTEGER NOT NULL DEFAULT 0,
    attempt INTEGER NOT NULL DEFAULT 0,
    next_retry_at INTEGER,
    continued_from_job_id TEXT REFERENCES jobs(id),
    parent_job_id TEXT REFERENCES jobs(id),
    pending_invoke TEXT CHECK (pending_invoke IN (${list(INVOKE_KINDS)})),
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
    author TEXT NOT NULL CHECK (author IN (${list(COMMENT_AUTHORS)})),
    kind TEXT NOT NULL CHECK (kind IN (${list(COMMENT_KINDS)})),
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
    status TEXT NOT NULL CHECK (status IN (${list(REQUEST_STATUSES)})),
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
    status TEXT NOT NULL CHECK (status IN (${list(REQUEST_STATUSES)})),
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
  `,
  // 2: the Invoke/Turn/LlmCall log, one flat sequence per database; LlmCall rows carry their usage.
  `
  CREATE TABLE log_entries (
    seq INTEGER PRIMARY KEY, -- rows are never deleted, so seq only grows (no AUTOINCREMENT bookkeeping per insert)
    task_id TEXT NOT NULL REFERENCES tasks(id),
    job_id TEXT NOT NULL REFERENCES jobs(id),
    kind TEXT NOT NULL CHECK (kind IN ('Invoke', 'UserTurn', 'AgentTurn', 'LlmCall', 'ToolTurn', 'SystemTurn')),
    invoke_seq INTEGER,
    agent_turn_seq INTEGER,
    ts INTEGER NOT NULL,
    invoke_kind TEXT CHECK (invoke_kind IN (${list(INVOKE_KINDS)})),
    body TEXT,
    attempt INTEGER,
    outcome TEXT,
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    cached_prompt_tokens INTEGER,
    latency_ms INTEGER,
    ttft_ms INTEGER,
    CHECK ((kind = 'Invoke') = (invoke_kind IS NOT NULL)),
    CHECK ((kind = 'LlmCall') = (attempt IS NOT NULL))
  ) STRICT;
  CREATE INDEX log_entries_by_task ON log_entries(task_id, seq);
  CREATE INDEX log_entries_invokes ON log_entries(task_id, seq) WHERE kind = 'Invoke';
  `,
  // 3: spaces — a named persistent folder reused across tasks, optionally pinned to one piece. Each folder that
  // earlier persistent tasks used becomes a space named after its last path segment.
  `
  CREATE TABLE spaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    folder TEXT NOT NULL UNIQUE,
    pinned_piece_id TEXT,
    created_at INTEGER NOT NULL
  ) STRICT;
  ALTER TABLE tasks ADD COLUMN space_id TEXT REFERENCES spaces(id);
  CREATE INDEX tasks_by_space ON tasks(space_id, created_at);
  INSERT INTO spaces (id, name, folder, created_at)
    SELECT 'spc_' || lower(hex(randomblob(12))),
           coalesce(nullif(replace(workspace_path, rtrim(workspace_path, replace(replace(workspace_path, '\\', '/'), '/', '')), ''), ''), workspace_path),
           workspace_path, min(created_at)
    FROM tasks WHERE workspace_kind = 'persistent' GROUP BY workspace_path;
  UPDATE tasks SET space_id = (SELECT s.id FROM spaces s WHERE s.folder = tasks.workspace_path)
    WHERE workspace_kind = 'persistent';
  `,
  // 4: how a task's piece was chosen — given by the caller, pinned by its space, the default, or by the LLM router
  // ('route': the router has not run yet; its first job asks it before starting).
  `
  ALTER TABLE tasks ADD COLUMN piece_choice TEXT NOT NULL DEFAULT 'given'
    CHECK (piece_choice IN ('given', 'pinned', 'default', 'route', 'routed'));
  `,
  // 5: the Scheduler's state per schedule of <dataDir>/schedules.json: when it fires next, what it made last.
  `
  CREATE TABLE schedule_runs (
    schedule_id TEXT PRIMARY KEY,
    next_run_at INTEGER NOT NULL,
    last_run_at INTEGER,
    last_task_id TEXT REFERENCES tasks(id),
    last_error TEXT
  ) STRICT;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export class SchemaTooNewError extends CodedError {
  readonly code = 'schema_too_new';
  constructor(file: string, found: number) {
    super(`${file} has schema version ${found}, newer than this build knows (${SCHEMA_VERSION}); upgrade MAESTRO`);
  }
}

/** Applies every migration above the DB's user_version, each atomically; returns the versions applied. */
export function migrate(db: Database, target = SCHEMA_VERSION): number[] {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) throw new SchemaTooNewError(db.name, current);
  const applied: number[] = [];
  for (let version = current + 1; version <= target; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version - 1] as string);
      db.pragma(`user_version = ${version}`);
    }).immediate();
    applied.push(version);
  }
  return applied;
}
