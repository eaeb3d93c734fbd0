// Migration 18 on a version-17 file with tasks and jobs in it: every row kept, job_guards empty and STRICT, a state
// that is no JSON object refused, a state for a job that does not exist refused, and a job's state goes with its task.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['tasks', 'jobs', 'comments', 'log_entries'];
const everyRow = (db: Database.Database) =>
  Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));

describe('migration 18 (from version 17 with data in it)', () => {
  it('keeps every row; job_guards holds one JSON object a job and goes with it', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 17);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke, resume_movement)
        VALUES ('j', 't', 1, 2, 'waiting_human', 'tool_request', 'default', NULL, 'work');
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m', 't', 'j', 'user', 'instruction', 'i', 1);
      INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind) VALUES ('t', 'j', 'Invoke', 1, 'UserSend');
    `);
    const before = everyRow(db);

    expect(migrate(db, 18)).toEqual([18]);
    expect(everyRow(db)).toEqual(before);
    expect(db.prepare('SELECT count(*) AS n FROM job_guards').get()).toEqual({ n: 0 });
    expect(
      (db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === 'job_guards')?.strict,
    ).toBe(1);

    const put = db.prepare('INSERT INTO job_guards (job_id, state, updated_at) VALUES (?, ?, 1)');
    expect(() => put.run('j', 'not json')).toThrow(/CHECK constraint failed/);
    expect(() => put.run('j', '[1, 2]')).toThrow(/CHECK constraint failed/);
    expect(() => put.run('nobody', '{}')).toThrow(/FOREIGN KEY/);
    expect(db.prepare('SELECT count(*) AS n FROM job_guards').get()).toEqual({ n: 0 });
    put.run('j', '{"entered":1}');
    expect(db.prepare('SELECT job_id, state FROM job_guards').all()).toEqual([{ job_id: 'j', state: '{"entered":1}' }]);

    // The task's removal (tasks.ts, children first) takes the job's state with the job.
    db.exec(`DELETE FROM log_entries; DELETE FROM comments; DELETE FROM jobs; DELETE FROM tasks;`);
    expect(db.prepare('SELECT count(*) AS n FROM job_guards').get()).toEqual({ n: 0 });
    db.close();
  });
});
