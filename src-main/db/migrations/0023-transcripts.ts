// Migration 23: transcripts in the database (issue 25 point 3). On a database several hosts share, a task's transcript
// and the conversation kept at each Invoke live here instead of runs/{taskId}/, so a job resumed or continued on
// another host finds its conversation. Alone on SQLite they stay files; the tables exist in both dialects alike.
// - transcript_chunks: the transcript as the chunks appended to it, in seq order (an append is one row, never a
//   rewrite of the text); a replace deletes the task's rows and writes one.
// - transcript_points: the transcript as it was at a named point (an Invoke's seq, `rewind-<checkpoint id>`).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 23;
export const name = 'transcripts';

export const sql = `
  CREATE TABLE transcript_chunks (
    seq INTEGER PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id),
    body TEXT NOT NULL CHECK (length(body) > 0),
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX transcript_chunks_by_task ON transcript_chunks(task_id, seq);

  CREATE TABLE transcript_points (
    task_id TEXT NOT NULL REFERENCES tasks(id),
    name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (task_id, name)
  ) STRICT;
`;
