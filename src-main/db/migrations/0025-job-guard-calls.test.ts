// Migration 25 on a version-24 file with a job and its guards' state: every row kept, job_guard_calls empty and STRICT,
// a count of no job, an empty or over-long digest or a count below 1 refused, one row a job and call, gone with its job.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['tasks', 'jobs', 'job_guards'];
const everyRow = (db: Database.Database) =>
  Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));

describe('migration 25 (from version 24 with a job and its guards in it)', () => {
  it('keeps every row; job_guard_calls holds one count a job and call, and goes with the job', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 24);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j', 't', 1, 2, 'running', 'default');
      INSERT INTO job_guards (job_id, state, updated_at) VALUES ('j', '{"entered":1,"calls":{"abc":2}}', 2);
    `);
    const before = everyRow(db);

    expect(migrate(db, 25)).toEqual([25]);
    expect(everyRow(db)).toEqual(before);
    expect(db.prepare('SELECT count(*) AS n FROM job_guard_calls').get()).toEqual({ n: 0 });
    expect(
      (db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === 'job_guard_calls')?.strict,
    ).toBe(1);

    const put = db.prepare('INSERT INTO job_guard_calls (job_id, call, times) VALUES (?, ?, ?)');
    expect(() => put.run('nobody', 'abc', 1)).toThrow(/FOREIGN KEY/);
    expect(() => put.run('j', '', 1)).toThrow(/CHECK constraint failed/);
    expect(() => put.run('j', 'x'.repeat(101), 1)).toThrow(/CHECK constraint failed/);
    expect(() => put.run('j', 'abc', 0)).toThrow(/CHECK constraint failed/);
    put.run('j', 'abc', 3);
    expect(() => put.run('j', 'abc', 4)).toThrow(/UNIQUE constraint failed/);
    expect(db.prepare('SELECT job_id, call, times FROM job_guard_calls').all()).toEqual([
      { job_id: 'j', call: 'abc', times: 3 },
    ]);

    db.exec(`DELETE FROM jobs; DELETE FROM tasks;`);
    expect(db.prepare('SELECT count(*) AS n FROM job_guard_calls').get()).toEqual({ n: 0 });
    db.close();
  });
});
