// Migration 14: the tasks of the Agent2Agent protocol. An A2A task is a span of a MAESTRO task's jobs, from the job it
// opened with (an ASK answered within it goes on to the answer's job); its context id names the MAESTRO task to other
// agents. The ids of the messages an agent sent are kept beside the comments they became, so the task's history
// gives them back. Both go with the task or job they belong to.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 14;
export const name = 'a2a-tasks';

export const sql = `
  CREATE TABLE a2a_tasks (
    id TEXT PRIMARY KEY,
    context_id TEXT NOT NULL,
    task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    first_job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX a2a_tasks_by_context ON a2a_tasks(context_id, created_at);
  CREATE INDEX a2a_tasks_by_task ON a2a_tasks(task_id);

  CREATE TABLE a2a_messages (
    comment_id TEXT PRIMARY KEY REFERENCES comments(id) ON DELETE CASCADE,
    message_id TEXT NOT NULL
  ) STRICT;
  `;
