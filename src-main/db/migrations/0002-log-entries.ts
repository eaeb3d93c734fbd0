// Migration 2: the Invoke/Turn/LlmCall log (log_entries), one flat sequence per database; LlmCall rows carry their
// usage. Frozen: never edited after it ships; a change is a new migration.
// (Databases made by its first release have `seq … AUTOINCREMENT`; 0002-log-entries.test.ts shows they behave alike.)

export const version = 2;
export const name = 'log-entries';

export const sql = `
  CREATE TABLE log_entries (
    seq INTEGER PRIMARY KEY, -- rows are never deleted, so seq only grows (no AUTOINCREMENT bookkeeping per insert)
    task_id TEXT NOT NULL REFERENCES tasks(id),
    job_id TEXT NOT NULL REFERENCES jobs(id),
    kind TEXT NOT NULL CHECK (kind IN ('Invoke', 'UserTurn', 'AgentTurn', 'LlmCall', 'ToolTurn', 'SystemTurn')),
    invoke_seq INTEGER,
    agent_turn_seq INTEGER,
    ts INTEGER NOT NULL,
    invoke_kind TEXT CHECK (invoke_kind IN ('UserSend', 'Notify', 'PodEvent', 'SystemReminder', 'Wakeup')),
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
  `;
