// Migration 17: checkpoints, rewinds and forks (issue 22).
// - checkpoints: the workspace as a git snapshot (`snapshot`: the full commit name, kept alive by `ref` below
//   refs/maestro/) taken at a Send's start (`send`), before a step that may change files (`step`, with the call it
//   preceded; none for the one at the end of a job run) or before a rewind (`rewind`); `files_json`: what changed
//   since the task's previous checkpoint, and `changed_by`: the agent's tool call that did it (null: not a step —
//   the person's edits between Sends or before a rewind); `skipped_json`: what the snapshot left out; `workspace_commit`: the short hash of the commit a succeeded job made
//   (P2.21), on the job's first checkpoint.
// - task_rewinds: a conversation rewound to Send #send: Invokes with seq in [from_seq, until_seq) are never replayed
//   again (P9.21: only at an Invoke marker's seq); `undone_at` when the person took it back.
// - tasks.forked_from_task_id / forked_at_send: a fork's origin (the conversation before that Send).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 17;
export const name = 'checkpoints';

export const sql = `
  CREATE TABLE checkpoints (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    send INTEGER NOT NULL CHECK (send >= 0),
    invoke_seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('send', 'step', 'rewind')),
    call_id TEXT,
    changed_by TEXT,
    snapshot TEXT NOT NULL CHECK (length(snapshot) >= 40),
    ref TEXT NOT NULL,
    files_json TEXT NOT NULL CHECK (json_valid(files_json)),
    skipped_json TEXT NOT NULL CHECK (json_valid(skipped_json)),
    workspace_commit TEXT,
    created_at INTEGER NOT NULL,
    CHECK (kind = 'step' OR (call_id IS NULL AND changed_by IS NULL))
  ) STRICT;
  CREATE INDEX checkpoints_by_task ON checkpoints(task_id, created_at);
  CREATE INDEX checkpoints_by_job ON checkpoints(job_id);

  CREATE TABLE task_rewinds (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    send INTEGER NOT NULL CHECK (send >= 1),
    from_seq INTEGER NOT NULL,
    until_seq INTEGER NOT NULL CHECK (until_seq > from_seq),
    created_at INTEGER NOT NULL,
    undone_at INTEGER
  ) STRICT;
  CREATE INDEX task_rewinds_by_task ON task_rewinds(task_id, created_at);

  ALTER TABLE tasks ADD COLUMN forked_from_task_id TEXT REFERENCES tasks(id) ON DELETE SET NULL;
  ALTER TABLE tasks ADD COLUMN forked_at_send INTEGER CHECK (forked_at_send IS NULL OR forked_at_send >= 1);
  `;
