// The enum lists of src-shared against the CHECK constraints of the migrated schema: the two must agree.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CALLER_ROLES } from '../../../src-shared/contract/callers';
import {
  COMMENT_AUTHORS,
  COMMENT_KINDS,
  JOB_STATUSES,
  REQUEST_STATUSES,
  WAIT_REASONS,
} from '../../../src-shared/entities';
import { INVOKE_KINDS } from '../../../src-shared/events';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const OUTSIDE = 'not_in_the_list';

function currentDb(): Database.Database {
  const db = new Database(path.join(tempDir(), 'maestro.db'));
  db.pragma('foreign_keys = ON');
  migrate(db);
  db.exec(`
    INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
      VALUES ('t', 't', 'i', 'p', '/w', 'persistent', 1);
    INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j', 't', 1, 1, 'queued', 'p');
  `);
  return db;
}

/** Which of `values` the column takes: each is written by `sql` in a savepoint that is rolled back. */
function accepted(db: Database.Database, sql: string, values: readonly string[]): string[] {
  const write = db.prepare(sql);
  return values.filter((value) => {
    db.exec('SAVEPOINT probe');
    try {
      write.run({ value });
      return true;
    } catch (error) {
      if (!/CHECK constraint failed/.test(String(error))) throw error;
      return false;
    } finally {
      db.exec('ROLLBACK TO probe; RELEASE probe');
    }
  });
}

interface Column {
  list: string;
  values: readonly string[];
  /** Writes `@value` to the column. */
  sql: string;
}

const COLUMNS: Record<string, Column> = {
  'jobs.status': {
    list: 'JOB_STATUSES',
    values: JOB_STATUSES,
    sql: `INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, next_retry_at, piece_id)
         VALUES ('j2', 't', 1, 1, @value, CASE @value WHEN 'waiting_human' THEN 'ask' END,
                 CASE @value WHEN 'retry' THEN 5 END, 'p')`,
  },
  'jobs.wait_reason': {
    list: 'WAIT_REASONS',
    values: WAIT_REASONS,
    sql: `UPDATE jobs SET status = 'waiting_human', wait_reason = @value WHERE id = 'j'`,
  },
  'jobs.pending_invoke': {
    list: 'INVOKE_KINDS',
    values: INVOKE_KINDS,
    sql: `UPDATE jobs SET pending_invoke = @value WHERE id = 'j'`,
  },
  'log_entries.invoke_kind': {
    list: 'INVOKE_KINDS',
    values: INVOKE_KINDS,
    sql: `INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind) VALUES ('t', 'j', 'Invoke', 1, @value)`,
  },
  'comments.author': {
    list: 'COMMENT_AUTHORS',
    values: COMMENT_AUTHORS,
    sql: `INSERT INTO comments (id, task_id, author, kind, body, created_at) VALUES ('c', 't', @value, 'comment', 'b', 1)`,
  },
  'comments.kind': {
    list: 'COMMENT_KINDS',
    values: COMMENT_KINDS,
    sql: `INSERT INTO comments (id, task_id, author, kind, body, created_at) VALUES ('c', 't', 'user', @value, 'b', 1)`,
  },
  'tool_requests.status': {
    list: 'REQUEST_STATUSES',
    values: REQUEST_STATUSES,
    sql: `INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, created_at)
         VALUES ('r', 't', 'j', 'c', 'run_command', '{}', 's', @value, 1)`,
  },
  'package_requests.status': {
    list: 'REQUEST_STATUSES',
    values: REQUEST_STATUSES,
    sql: `INSERT INTO package_requests (id, task_id, job_id, call_id, manager, name, reason, status, created_at)
         VALUES ('p', 't', 'j', 'c', 'npm', 'x', 'r', @value, 1)`,
  },
  'callers.role': {
    list: 'CALLER_ROLES',
    values: CALLER_ROLES,
    sql: `INSERT INTO callers (id, name, role, spaces, token_hash, created_at)
         VALUES ('c', 'n', @value, '"all"', '${'0'.repeat(64)}', 1)`,
  },
};

describe('the enum lists and the schema at SCHEMA_VERSION', () => {
  for (const [column, { list, values, sql }] of Object.entries(COLUMNS)) {
    it(`${column} takes every value of ${list} and refuses one outside it: adding a value to ${list} without a new migration fails this test`, () => {
      const db = currentDb();
      expect(accepted(db, sql, [...values, OUTSIDE])).toEqual([...values]);
      db.close();
    });
  }
});
