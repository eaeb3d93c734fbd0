// Migration 19 on a version-18 file with tasks, spaces and jobs in it: every row kept, callers and caller_actions
// empty and STRICT, a caller's role, spaces and token hash checked, an action of a caller that does not exist refused.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['spaces', 'tasks', 'jobs', 'comments', 'job_guards'];
const everyRow = (db: Database.Database) =>
  Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
const HASH = 'a'.repeat(64);

describe('migration 19 (from version 18 with data in it)', () => {
  it('keeps every row; callers keep a checked role, spaces and hash; actions name an existing caller', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 18);
    db.exec(`
      INSERT INTO spaces (id, name, folder, created_at) VALUES ('spc_1', 'repo', '/repo', 1);
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice, space_id)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given', 'spc_1');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j', 't', 1, 2, 'queued', 'default');
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m', 't', 'j', 'user', 'instruction', 'i', 1);
      INSERT INTO job_guards (job_id, state, updated_at) VALUES ('j', '{"entered":1}', 1);
    `);
    const before = everyRow(db);

    expect(migrate(db, 19)).toEqual([19]);
    expect(everyRow(db)).toEqual(before);
    const tables = db.pragma('table_list') as { name: string; strict: number }[];
    for (const name of ['callers', 'caller_actions']) {
      expect(tables.find((t) => t.name === name)?.strict).toBe(1);
      expect(db.prepare(`SELECT count(*) AS n FROM ${name}`).get()).toEqual({ n: 0 });
    }

    const put = db.prepare(
      'INSERT INTO callers (id, name, role, spaces, token_hash, created_at) VALUES (?, ?, ?, ?, ?, 1)',
    );
    expect(() => put.run('c', 'ci', 'robot', '"all"', HASH)).toThrow(/CHECK constraint failed/);
    expect(() => put.run('c', 'ci', 'script', '"some"', HASH)).toThrow(/CHECK constraint failed/);
    expect(() => put.run('c', 'ci', 'script', 'not json', HASH)).toThrow(/CHECK constraint failed/);
    expect(() => put.run('c', 'ci', 'script', '{"a":1}', HASH)).toThrow(/CHECK constraint failed/);
    expect(() => put.run('c', 'ci', 'script', '"all"', 'short')).toThrow(/CHECK constraint failed/);
    expect(() => put.run('c', '', 'script', '"all"', HASH)).toThrow(/CHECK constraint failed/);
    put.run('c', 'ci', 'script', '["spc_1"]', HASH);
    expect(() => put.run('d', 'other', 'person', '"all"', HASH)).toThrow(/UNIQUE constraint failed/);
    put.run('d', 'other', 'person', '"all"', 'b'.repeat(64));

    const act = db.prepare('INSERT INTO caller_actions (caller_id, operation, task_id, at) VALUES (?, ?, ?, 1)');
    expect(() => act.run('nobody', 'addComment', 't')).toThrow(/FOREIGN KEY/);
    act.run('c', 'addComment', 't');
    expect(db.prepare('SELECT caller_id, operation, task_id FROM caller_actions').all()).toEqual([
      { caller_id: 'c', operation: 'addComment', task_id: 't' },
    ]);
    db.close();
  });
});
