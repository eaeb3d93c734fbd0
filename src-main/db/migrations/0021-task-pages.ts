// Migration 21: the task list by pages (issue 28 point 3). Each task keeps its latest job's status in latest_status
// (of its work: a Reflection job, migration 20, is never the task's status),
// kept by triggers on jobs (so listing a page, or the tasks waiting for a person, needs no subquery per task), and
// indexes make the first page, a status's page, the tasks of a workspace and a task's latest job lookups of an index
// rather than scans of every task. The backfill reads every task once, here and never again.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 21;
export const name = 'task-pages';

export const sql = `
  ALTER TABLE tasks ADD COLUMN latest_status TEXT
    CHECK (latest_status IN ('queued', 'running', 'waiting_human', 'waiting_subtasks', 'retry', 'succeeded', 'failed', 'cancelled'));

  CREATE INDEX jobs_latest_by_task ON jobs(task_id, created_at);

  UPDATE tasks SET latest_status =
    (SELECT j.status FROM jobs j WHERE j.task_id = tasks.id AND j.kind = 'run' ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1);

  CREATE TRIGGER tasks_latest_status_on_insert AFTER INSERT ON jobs BEGIN
    UPDATE tasks SET latest_status =
      (SELECT j.status FROM jobs j WHERE j.task_id = NEW.task_id AND j.kind = 'run' ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1)
      WHERE id = NEW.task_id;
  END;
  CREATE TRIGGER tasks_latest_status_on_update AFTER UPDATE OF status, created_at ON jobs BEGIN
    UPDATE tasks SET latest_status =
      (SELECT j.status FROM jobs j WHERE j.task_id = NEW.task_id AND j.kind = 'run' ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1)
      WHERE id = NEW.task_id;
  END;
  CREATE TRIGGER tasks_latest_status_on_delete AFTER DELETE ON jobs BEGIN
    UPDATE tasks SET latest_status =
      (SELECT j.status FROM jobs j WHERE j.task_id = OLD.task_id AND j.kind = 'run' ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1)
      WHERE id = OLD.task_id;
  END;

  CREATE INDEX tasks_page_listed ON tasks(created_at) WHERE archived_at IS NULL;
  CREATE INDEX tasks_page_archived ON tasks(created_at) WHERE archived_at IS NOT NULL;
  CREATE INDEX tasks_page_by_status ON tasks(latest_status, created_at);
  CREATE INDEX tasks_by_workspace ON tasks(workspace_path, latest_status);
  `;
