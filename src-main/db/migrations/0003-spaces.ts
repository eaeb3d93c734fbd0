// Migration 3: spaces, a named persistent folder reused across tasks, optionally pinned to one piece; each folder
// that earlier persistent tasks used becomes a space named after its last path segment.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 3;
export const name = 'spaces';

export const sql = `
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
  `;
