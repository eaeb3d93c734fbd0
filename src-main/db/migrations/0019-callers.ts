// Migration 19: callers, the bridge's tokens besides the host owner's (bridge.json): each names the spaces whose
// tasks it sees ("all" or a JSON array of space ids) and keeps only the SHA-256 of its token; a revoked caller keeps
// its row so the audit can still name it. caller_actions is that audit: one row per write a caller's token made.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 19;
export const name = 'callers';

export const sql = `
  CREATE TABLE callers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    role TEXT NOT NULL CHECK (role IN ('person', 'script', 'agent')),
    spaces TEXT NOT NULL CHECK (json_valid(spaces) AND (spaces = '"all"' OR json_type(spaces) = 'array')),
    token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    created_at INTEGER NOT NULL,
    revoked_at INTEGER
  ) STRICT;
  CREATE TABLE caller_actions (
    id INTEGER PRIMARY KEY,
    caller_id TEXT NOT NULL REFERENCES callers(id),
    operation TEXT NOT NULL,
    task_id TEXT,
    at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX caller_actions_by_task ON caller_actions(task_id, at);
  `;
