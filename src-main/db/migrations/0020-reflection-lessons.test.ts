// Migration 20 on a version-19 file with tasks and jobs in it: every row kept, each job a `run`, each space following
// the settings, lessons empty and STRICT, a lesson's status, scope and size checked, and a lesson outliving its source
// task (the reference cleared).
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['tasks', 'comments', 'callers'];
const everyRow = (db: Database.Database) =>
  Object.fromEntries(TABLES.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));

describe('migration 20 (from version 19 with data in it)', () => {
  it('P2.08 keeps every row; old jobs are `run`; lessons are checked and outlive their task', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 19);
    db.exec(`
      INSERT INTO spaces (id, name, folder, created_at) VALUES ('spc_1', 'repo', '/repo', 1);
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice, space_id)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given', 'spc_1');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j', 't', 1, 2, 'failed', 'default');
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m', 't', 'j', 'user', 'instruction', 'i', 1);
    `);
    const before = everyRow(db);
    const jobBefore = db.prepare('SELECT * FROM jobs').get() as Record<string, unknown>;
    const spaceBefore = db.prepare('SELECT * FROM spaces').get() as Record<string, unknown>;

    expect(migrate(db, 20)).toEqual([20]);
    expect(everyRow(db)).toEqual(before);
    expect(db.prepare('SELECT * FROM jobs').get()).toEqual({ ...jobBefore, kind: 'run' });
    // A space follows the settings until it says otherwise; it says only one of the modes.
    expect(db.prepare('SELECT * FROM spaces').get()).toEqual({ ...spaceBefore, reflection: null });
    expect(() => db.prepare("UPDATE spaces SET reflection = 'sometimes'").run()).toThrow(/CHECK constraint failed/);
    db.prepare("UPDATE spaces SET reflection = 'always'").run();
    const tables = db.pragma('table_list') as { name: string; strict: number }[];
    expect(tables.find((t) => t.name === 'lessons')?.strict).toBe(1);
    expect(() => db.prepare("UPDATE jobs SET kind = 'other' WHERE id = 'j'").run()).toThrow(/CHECK constraint failed/);
    db.prepare(
      "INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, kind) VALUES ('r', 't', 3, 3, 'queued', 'default', 'reflection')",
    ).run();

    const put = db.prepare(
      `INSERT INTO lessons (id, text, evidence, status, scope, workspace_path, piece_id, source_task_id, source_job_id, created_at)
       VALUES (?, ?, '', ?, ?, '/repo', 'default', 't', 'r', 1)`,
    );
    expect(() => put.run('l', '', 'proposed', 'workspace')).toThrow(/CHECK constraint failed/);
    expect(() => put.run('l', 'x'.repeat(301), 'proposed', 'workspace')).toThrow(/CHECK constraint failed/);
    expect(() => put.run('l', 'ok', 'maybe', 'workspace')).toThrow(/CHECK constraint failed/);
    expect(() => put.run('l', 'ok', 'proposed', 'galaxy')).toThrow(/CHECK constraint failed/);
    put.run('l', 'x'.repeat(300), 'proposed', 'workspace');
    expect(() =>
      db
        .prepare(
          `INSERT INTO lessons (id, text, evidence, status, scope, workspace_path, piece_id, source_task_id, created_at)
           VALUES ('m', 'ok', '', 'proposed', 'workspace', '/r', 'p', 'nope', 1)`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/);

    db.exec("DELETE FROM comments; DELETE FROM jobs; DELETE FROM tasks WHERE id = 't'");
    expect(db.prepare('SELECT source_task_id, source_job_id, text FROM lessons').get()).toEqual({
      source_task_id: null,
      source_job_id: null,
      text: 'x'.repeat(300),
    });
    db.close();
  });
});
