// PostgreSQL migration 1: the whole schema of SQLite migration 21 (issue 25 point 3), so the same repositories read
// and write the same rows on either dialect. What differs, and why:
// - Every table has a real `rowid` column, as SQLite has a hidden one: the repositories order by it and page on it.
//   Where SQLite's rowid is an INTEGER PRIMARY KEY (events.seq, log_entries.seq, caller_actions.id) that key is the
//   identity and rowid is the same number, as in SQLite.
// - Every TEXT column sorts in the C collation, bytewise, as SQLite's BINARY does, whatever the database's locale.
// - Millisecond times and sequence numbers are BIGINT (SQLite's INTEGER is 64-bit); counts stay INTEGER; JSON stays
//   TEXT, checked by json_valid and json_type functions with SQLite's names and answers.
// - The latest_status triggers are one plpgsql function behind the three triggers SQLite has.
// - events_notify wakes LISTENers on maestro_events once per inserting statement, delivered at commit.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 1;
export const name = 'schema';

export const sql = `
  CREATE FUNCTION json_valid(value TEXT) RETURNS BOOLEAN LANGUAGE plpgsql IMMUTABLE AS $$
  BEGIN
    IF value IS NULL THEN RETURN NULL; END IF;
    PERFORM value::json;
    RETURN TRUE;
  EXCEPTION WHEN data_exception THEN
    RETURN FALSE;
  END $$;

  CREATE FUNCTION json_type(value TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE json_typeof(value::json)
      WHEN 'string' THEN 'text'
      WHEN 'boolean' THEN btrim(value, E' \\t\\n\\r')
      WHEN 'number' THEN CASE WHEN btrim(value, E' \\t\\n\\r') ~ '^-?[0-9]+$' THEN 'integer' ELSE 'real' END
      ELSE json_typeof(value::json)
    END
  $$;

  CREATE TABLE spaces (
    id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    folder TEXT COLLATE "C" NOT NULL UNIQUE,
    pinned_piece_id TEXT COLLATE "C",
    created_at BIGINT NOT NULL,
    reflection TEXT COLLATE "C" CHECK (reflection IN ('failures', 'always', 'off')),
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );

  CREATE TABLE tasks (
    id TEXT COLLATE "C" PRIMARY KEY,
    title TEXT COLLATE "C" NOT NULL,
    instruction TEXT COLLATE "C" NOT NULL,
    piece_id TEXT COLLATE "C" NOT NULL,
    workspace_path TEXT COLLATE "C" NOT NULL,
    workspace_kind TEXT COLLATE "C" NOT NULL CHECK (workspace_kind IN ('persistent', 'ephemeral')),
    profile TEXT COLLATE "C",
    parent_task_id TEXT COLLATE "C" REFERENCES tasks(id),
    created_at BIGINT NOT NULL,
    space_id TEXT COLLATE "C" REFERENCES spaces(id),
    piece_choice TEXT COLLATE "C" NOT NULL DEFAULT 'given'
      CHECK (piece_choice IN ('given', 'pinned', 'default', 'route', 'routed')),
    archived_at BIGINT,
    forked_from_task_id TEXT COLLATE "C" REFERENCES tasks(id) ON DELETE SET NULL,
    forked_at_send INTEGER CHECK (forked_at_send IS NULL OR forked_at_send >= 1),
    latest_status TEXT COLLATE "C"
      CHECK (latest_status IN ('queued', 'running', 'waiting_human', 'waiting_subtasks', 'retry', 'succeeded', 'failed', 'cancelled')),
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX tasks_by_created ON tasks(created_at);
  CREATE INDEX tasks_by_space ON tasks(space_id, created_at);
  CREATE INDEX tasks_page_listed ON tasks(created_at) WHERE archived_at IS NULL;
  CREATE INDEX tasks_page_archived ON tasks(created_at) WHERE archived_at IS NOT NULL;
  CREATE INDEX tasks_page_by_status ON tasks(latest_status, created_at);
  CREATE INDEX tasks_by_workspace ON tasks(workspace_path, latest_status);

  CREATE TABLE jobs (
    id TEXT COLLATE "C" PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    status TEXT COLLATE "C" NOT NULL
      CHECK (status IN ('queued', 'running', 'waiting_human', 'waiting_subtasks', 'retry', 'succeeded', 'failed', 'cancelled')),
    wait_reason TEXT COLLATE "C"
      CHECK (wait_reason IN ('ask', 'tool_request', 'package_request', 'mcp_auth_required', 'browser', 'settings')),
    piece_id TEXT COLLATE "C" NOT NULL,
    profile TEXT COLLATE "C",
    resume_movement TEXT COLLATE "C",
    ask_count INTEGER NOT NULL DEFAULT 0,
    attempt INTEGER NOT NULL DEFAULT 0,
    next_retry_at BIGINT,
    continued_from_job_id TEXT COLLATE "C" REFERENCES jobs(id),
    parent_job_id TEXT COLLATE "C" REFERENCES jobs(id),
    pending_invoke TEXT COLLATE "C" CHECK (pending_invoke IN ('UserSend', 'Notify', 'PodEvent', 'SystemReminder', 'Wakeup')),
    worker_id TEXT COLLATE "C",
    heartbeat_at BIGINT,
    started_at BIGINT,
    finished_at BIGINT,
    error TEXT COLLATE "C",
    result TEXT COLLATE "C",
    error_code TEXT COLLATE "C",
    kind TEXT COLLATE "C" NOT NULL DEFAULT 'run' CHECK (kind IN ('run', 'reflection')),
    rowid BIGINT GENERATED ALWAYS AS IDENTITY,
    CHECK ((status = 'waiting_human') = (wait_reason IS NOT NULL)),
    CHECK ((status = 'retry') = (next_retry_at IS NOT NULL))
  );
  CREATE INDEX jobs_by_status_created ON jobs(status, created_at);
  CREATE INDEX jobs_by_status_retry ON jobs(status, next_retry_at);
  CREATE INDEX jobs_by_task ON jobs(task_id, status);
  CREATE INDEX jobs_by_parent ON jobs(parent_job_id) WHERE parent_job_id IS NOT NULL;
  CREATE INDEX jobs_by_task_kind ON jobs(task_id, kind, created_at);
  CREATE INDEX jobs_latest_by_task ON jobs(task_id, created_at);

  CREATE FUNCTION tasks_latest_status() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE
    of_task TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD.task_id ELSE NEW.task_id END;
  BEGIN
    UPDATE tasks SET latest_status =
      (SELECT j.status FROM jobs j WHERE j.task_id = of_task AND j.kind = 'run' ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1)
      WHERE id = of_task;
    RETURN NULL;
  END $$;
  CREATE TRIGGER tasks_latest_status_on_insert AFTER INSERT ON jobs
    FOR EACH ROW EXECUTE FUNCTION tasks_latest_status();
  CREATE TRIGGER tasks_latest_status_on_update AFTER UPDATE OF status, created_at ON jobs
    FOR EACH ROW EXECUTE FUNCTION tasks_latest_status();
  CREATE TRIGGER tasks_latest_status_on_delete AFTER DELETE ON jobs
    FOR EACH ROW EXECUTE FUNCTION tasks_latest_status();

  CREATE TABLE comments (
    id TEXT COLLATE "C" PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id),
    job_id TEXT COLLATE "C" REFERENCES jobs(id),
    author TEXT COLLATE "C" NOT NULL CHECK (author IN ('user', 'agent', 'system')),
    kind TEXT COLLATE "C" NOT NULL
      CHECK (kind IN ('instruction', 'comment', 'interjection', 'question', 'answer', 'result', 'handoff', 'error')),
    body TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    delivered_at BIGINT,
    choices_json TEXT COLLATE "C" CHECK (choices_json IS NULL OR json_valid(choices_json)),
    attachments_json TEXT COLLATE "C" CHECK (attachments_json IS NULL OR json_valid(attachments_json)),
    notice_json TEXT COLLATE "C" CHECK (notice_json IS NULL OR json_valid(notice_json)),
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX comments_by_task ON comments(task_id, created_at);
  CREATE INDEX comments_undelivered ON comments(job_id) WHERE kind = 'interjection' AND delivered_at IS NULL;

  CREATE TABLE tool_requests (
    id TEXT COLLATE "C" PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id),
    job_id TEXT COLLATE "C" NOT NULL REFERENCES jobs(id),
    call_id TEXT COLLATE "C" NOT NULL,
    tool TEXT COLLATE "C" NOT NULL,
    args_json TEXT COLLATE "C" NOT NULL,
    summary TEXT COLLATE "C" NOT NULL,
    status TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
    scope TEXT COLLATE "C" CHECK (scope IN ('once', 'task')),
    created_at BIGINT NOT NULL,
    decided_at BIGINT,
    started_at BIGINT,
    deny_reason TEXT COLLATE "C",
    display_json TEXT COLLATE "C" CHECK (display_json IS NULL OR json_valid(display_json)),
    grant_options_json TEXT COLLATE "C" CHECK (grant_options_json IS NULL OR json_valid(grant_options_json)),
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX tool_requests_by_task ON tool_requests(task_id, created_at);
  CREATE INDEX tool_requests_by_job ON tool_requests(job_id, status);

  CREATE TABLE package_requests (
    id TEXT COLLATE "C" PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id),
    job_id TEXT COLLATE "C" NOT NULL REFERENCES jobs(id),
    call_id TEXT COLLATE "C" NOT NULL,
    manager TEXT COLLATE "C" NOT NULL CHECK (manager IN ('npm', 'pip')),
    name TEXT COLLATE "C" NOT NULL,
    version TEXT COLLATE "C",
    reason TEXT COLLATE "C" NOT NULL,
    status TEXT COLLATE "C" NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
    created_at BIGINT NOT NULL,
    decided_at BIGINT,
    started_at BIGINT,
    deny_reason TEXT COLLATE "C",
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX package_requests_by_task ON package_requests(task_id, created_at);
  CREATE INDEX package_requests_by_job ON package_requests(job_id, status);

  CREATE TABLE events (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ts BIGINT NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    task_id TEXT COLLATE "C" NOT NULL,
    job_id TEXT COLLATE "C",
    payload TEXT COLLATE "C" NOT NULL,
    rowid BIGINT GENERATED ALWAYS AS (seq) STORED
  );
  CREATE INDEX events_by_task ON events(task_id, seq);

  CREATE FUNCTION events_notify() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM pg_notify('maestro_events', '');
    RETURN NULL;
  END $$;
  CREATE TRIGGER events_notify AFTER INSERT ON events FOR EACH STATEMENT EXECUTE FUNCTION events_notify();

  CREATE TABLE log_entries (
    seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id),
    job_id TEXT COLLATE "C" NOT NULL REFERENCES jobs(id),
    kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('Invoke', 'UserTurn', 'AgentTurn', 'LlmCall', 'ToolTurn', 'SystemTurn')),
    invoke_seq BIGINT,
    agent_turn_seq BIGINT,
    ts BIGINT NOT NULL,
    invoke_kind TEXT COLLATE "C" CHECK (invoke_kind IN ('UserSend', 'Notify', 'PodEvent', 'SystemReminder', 'Wakeup')),
    body TEXT COLLATE "C",
    attempt INTEGER,
    outcome TEXT COLLATE "C",
    prompt_tokens INTEGER,
    completion_tokens INTEGER,
    cached_prompt_tokens INTEGER,
    latency_ms INTEGER,
    ttft_ms INTEGER,
    rowid BIGINT GENERATED ALWAYS AS (seq) STORED,
    CHECK ((kind = 'Invoke') = (invoke_kind IS NOT NULL)),
    CHECK ((kind = 'LlmCall') = (attempt IS NOT NULL))
  );
  CREATE INDEX log_entries_by_task ON log_entries(task_id, seq);
  CREATE INDEX log_entries_invokes ON log_entries(task_id, seq) WHERE kind = 'Invoke';
  CREATE INDEX log_entries_steps ON log_entries(task_id, ts) WHERE kind = 'AgentTurn' AND body IS NOT NULL;
  CREATE INDEX log_entries_by_turn ON log_entries(agent_turn_seq) WHERE agent_turn_seq IS NOT NULL;

  CREATE TABLE schedule_runs (
    schedule_id TEXT COLLATE "C" PRIMARY KEY,
    next_run_at BIGINT NOT NULL,
    last_run_at BIGINT,
    last_task_id TEXT COLLATE "C" REFERENCES tasks(id),
    last_error TEXT COLLATE "C",
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );

  CREATE TABLE a2a_tasks (
    id TEXT COLLATE "C" PRIMARY KEY,
    context_id TEXT COLLATE "C" NOT NULL,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    first_job_id TEXT COLLATE "C" NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX a2a_tasks_by_context ON a2a_tasks(context_id, created_at);
  CREATE INDEX a2a_tasks_by_task ON a2a_tasks(task_id);

  CREATE TABLE a2a_messages (
    comment_id TEXT COLLATE "C" PRIMARY KEY REFERENCES comments(id) ON DELETE CASCADE,
    message_id TEXT COLLATE "C" NOT NULL,
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );

  CREATE TABLE task_grants (
    id TEXT COLLATE "C" PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    request_id TEXT COLLATE "C" NOT NULL REFERENCES tool_requests(id) ON DELETE CASCADE,
    tool TEXT COLLATE "C" NOT NULL,
    kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('exact', 'prefix', 'tool')),
    target_kind TEXT COLLATE "C" CHECK (target_kind IN ('command', 'path', 'agent', 'call')),
    target TEXT COLLATE "C",
    rule TEXT COLLATE "C",
    created_at BIGINT NOT NULL,
    revoked_at BIGINT,
    rowid BIGINT GENERATED ALWAYS AS IDENTITY,
    CHECK ((kind = 'exact') = (target IS NOT NULL AND target_kind IS NOT NULL)),
    CHECK ((kind = 'prefix') = (rule IS NOT NULL))
  );
  CREATE INDEX task_grants_by_task ON task_grants(task_id, created_at);
  CREATE INDEX task_grants_by_request ON task_grants(request_id);

  CREATE TABLE checkpoints (
    id TEXT COLLATE "C" PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    job_id TEXT COLLATE "C" NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
    send INTEGER NOT NULL CHECK (send >= 0),
    invoke_seq BIGINT NOT NULL,
    kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('send', 'step', 'rewind')),
    call_id TEXT COLLATE "C",
    changed_by TEXT COLLATE "C",
    snapshot TEXT COLLATE "C" NOT NULL CHECK (length(snapshot) >= 40),
    ref TEXT COLLATE "C" NOT NULL,
    files_json TEXT COLLATE "C" NOT NULL CHECK (json_valid(files_json)),
    skipped_json TEXT COLLATE "C" NOT NULL CHECK (json_valid(skipped_json)),
    workspace_commit TEXT COLLATE "C",
    created_at BIGINT NOT NULL,
    rowid BIGINT GENERATED ALWAYS AS IDENTITY,
    CHECK (kind = 'step' OR (call_id IS NULL AND changed_by IS NULL))
  );
  CREATE INDEX checkpoints_by_task ON checkpoints(task_id, created_at);
  CREATE INDEX checkpoints_by_job ON checkpoints(job_id);

  CREATE TABLE task_rewinds (
    id TEXT COLLATE "C" PRIMARY KEY,
    task_id TEXT COLLATE "C" NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    send INTEGER NOT NULL CHECK (send >= 1),
    from_seq BIGINT NOT NULL,
    until_seq BIGINT NOT NULL CHECK (until_seq > from_seq),
    created_at BIGINT NOT NULL,
    undone_at BIGINT,
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX task_rewinds_by_task ON task_rewinds(task_id, created_at);

  CREATE TABLE job_guards (
    job_id TEXT COLLATE "C" PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
    state TEXT COLLATE "C" NOT NULL CHECK (json_valid(state) AND json_type(state) = 'object'),
    updated_at BIGINT NOT NULL,
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );

  CREATE TABLE callers (
    id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    role TEXT COLLATE "C" NOT NULL CHECK (role IN ('person', 'script', 'agent')),
    spaces TEXT COLLATE "C" NOT NULL CHECK (json_valid(spaces) AND (spaces = '"all"' OR json_type(spaces) = 'array')),
    token_hash TEXT COLLATE "C" NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    created_at BIGINT NOT NULL,
    revoked_at BIGINT,
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );

  CREATE TABLE caller_actions (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    caller_id TEXT COLLATE "C" NOT NULL REFERENCES callers(id),
    operation TEXT COLLATE "C" NOT NULL,
    task_id TEXT COLLATE "C",
    at BIGINT NOT NULL,
    rowid BIGINT GENERATED ALWAYS AS (id) STORED
  );
  CREATE INDEX caller_actions_by_task ON caller_actions(task_id, at);

  CREATE TABLE lessons (
    id TEXT COLLATE "C" PRIMARY KEY,
    text TEXT COLLATE "C" NOT NULL CHECK (length(text) BETWEEN 1 AND 300),
    evidence TEXT COLLATE "C" NOT NULL CHECK (length(evidence) <= 500),
    status TEXT COLLATE "C" NOT NULL CHECK (status IN ('proposed', 'approved', 'dismissed', 'retired')),
    scope TEXT COLLATE "C" NOT NULL CHECK (scope IN ('workspace', 'piece', 'everywhere')),
    workspace_path TEXT COLLATE "C" NOT NULL,
    piece_id TEXT COLLATE "C" NOT NULL,
    source_task_id TEXT COLLATE "C" REFERENCES tasks(id) ON DELETE SET NULL,
    source_job_id TEXT COLLATE "C" REFERENCES jobs(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    decided_at BIGINT,
    last_used_at BIGINT,
    use_count INTEGER NOT NULL DEFAULT 0 CHECK (use_count >= 0),
    rowid BIGINT GENERATED ALWAYS AS IDENTITY
  );
  CREATE INDEX lessons_by_status ON lessons(status, scope);
  CREATE INDEX lessons_by_task ON lessons(source_task_id, created_at);
  CREATE INDEX lessons_by_job ON lessons(source_job_id);
  `;
