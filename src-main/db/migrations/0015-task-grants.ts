// Migration 15: task grants — what a person approved "for this task", as narrow as the card showed: `exact` (that
// command, that tool on that file or agent, that call's arguments: `target_kind` + `target`), `prefix` (a run_command
// rule such as `git diff *`, in `rule`), or `tool` (any call of the tool, chosen in those words). Each comes from the
// tool request it was chosen on and can be revoked (`revoked_at`); it goes with its task and its request.
//
// Until now an approval with scope `task` granted the whole tool. Those approvals were given on a card that showed
// one call, so each becomes the `exact` grant of that call: run_command → the command; read_file, list_dir,
// write_file, edit_file, grep → the path (grep: `.` when none; a leading `./` dropped — the engine normalises paths
// further, so a spelling such as `a/../b` no longer matches and asks again, on the safe side); a2a_send → the agent;
// any other tool → the call's arguments exactly as stored.
// A tool request keeps what its card offers "for this task" (`grant_options_json`, worked out by the engine where the
// tool is known); NULL for every request before this version (its card then offers the exact and the blanket grant).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 15;
export const name = 'task-grants';

export const sql = `
  ALTER TABLE tool_requests ADD COLUMN grant_options_json TEXT
    CHECK (grant_options_json IS NULL OR json_valid(grant_options_json));

  CREATE TABLE task_grants (
    id TEXT PRIMARY KEY,
    task_id TEXT NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    request_id TEXT NOT NULL REFERENCES tool_requests(id) ON DELETE CASCADE,
    tool TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('exact', 'prefix', 'tool')),
    target_kind TEXT CHECK (target_kind IN ('command', 'path', 'agent', 'call')),
    target TEXT,
    rule TEXT,
    created_at INTEGER NOT NULL,
    revoked_at INTEGER,
    CHECK ((kind = 'exact') = (target IS NOT NULL AND target_kind IS NOT NULL)),
    CHECK ((kind = 'prefix') = (rule IS NOT NULL))
  ) STRICT;
  CREATE INDEX task_grants_by_task ON task_grants(task_id, created_at);
  CREATE INDEX task_grants_by_request ON task_grants(request_id);

  WITH granted AS (
    SELECT id, task_id, tool, args_json, coalesce(decided_at, created_at) AS at,
      CASE
        WHEN tool = 'run_command' AND json_type(args_json, '$.command') = 'text' THEN 'command'
        WHEN tool IN ('read_file', 'list_dir', 'write_file', 'edit_file')
          AND json_type(args_json, '$.path') = 'text' THEN 'path'
        WHEN tool = 'grep' AND coalesce(json_type(args_json, '$.path'), 'text') = 'text' THEN 'path'
        WHEN tool = 'a2a_send' AND json_type(args_json, '$.agent') = 'text' THEN 'agent'
        ELSE 'call'
      END AS target_kind,
      coalesce(json_extract(args_json, '$.path'), '.') AS path
    FROM tool_requests
    WHERE status = 'approved' AND scope = 'task'
  )
  INSERT INTO task_grants (id, task_id, request_id, tool, kind, target_kind, target, rule, created_at, revoked_at)
  SELECT 'grant_' || id, task_id, id, tool, 'exact', target_kind,
    CASE target_kind
      WHEN 'command' THEN json_extract(args_json, '$.command')
      WHEN 'path' THEN CASE WHEN path LIKE './%' THEN substr(path, 3) ELSE path END
      WHEN 'agent' THEN json_extract(args_json, '$.agent')
      ELSE args_json
    END,
    NULL, at, NULL
  FROM granted;
  `;
