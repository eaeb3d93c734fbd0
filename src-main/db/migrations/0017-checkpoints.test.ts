// Migration 17 on a version-16 file with a task and jobs: every row kept (tasks get no fork origin), checkpoints and
// rewinds hang on their task and go with it, and the CHECKs refuse a step checkpoint without its call, a snapshot
// that is not an object name, files that are not JSON and a rewind range that is empty.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const SHA = 'a'.repeat(40);

describe('migration 17 (from version 16 with data in it)', () => {
  it('keeps tasks and jobs; checkpoints and rewinds are checked and go with their task', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 16);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'succeeded', 'default', NULL);
    `);
    const tasksBefore = db.prepare('SELECT * FROM tasks').all();
    const jobsBefore = db.prepare('SELECT * FROM jobs').all();

    expect(migrate(db, 17)).toEqual([17]);
    expect(db.prepare('SELECT * FROM tasks').all()).toEqual(
      tasksBefore.map((row) => ({ ...(row as object), forked_from_task_id: null, forked_at_send: null })),
    );
    expect(db.prepare('SELECT * FROM jobs').all()).toEqual(jobsBefore);

    const checkpoint = db.prepare(
      `INSERT INTO checkpoints (id, task_id, job_id, send, invoke_seq, kind, call_id, snapshot, ref, files_json, skipped_json, created_at)
       VALUES (?, 't', 'j', 1, 5, ?, ?, ?, 'tasks/t/x', ?, '[]', 3)`,
    );
    checkpoint.run('c1', 'send', null, SHA, '[]');
    checkpoint.run('c2', 'step', 'call_1', SHA, '[{"path":"a","change":"added"}]');
    checkpoint.run('c3', 'step', null, SHA, '[]');
    expect(() => checkpoint.run('c4', 'send', 'call_1', SHA, '[]')).toThrow(/CHECK constraint failed/);
    expect(() => checkpoint.run('c5', 'send', null, 'abc', '[]')).toThrow(/CHECK constraint failed/);
    expect(() => checkpoint.run('c6', 'send', null, SHA, '{not json')).toThrow(/CHECK constraint failed/);
    expect(() => checkpoint.run('c7', 'undo', null, SHA, '[]')).toThrow(/CHECK constraint failed/);

    const rewind = db.prepare(
      `INSERT INTO task_rewinds (id, task_id, send, from_seq, until_seq, created_at) VALUES (?, 't', 2, ?, ?, 4)`,
    );
    rewind.run('r1', 10, 20);
    expect(() => rewind.run('r2', 20, 20)).toThrow(/CHECK constraint failed/);

    db.exec(`INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice, forked_from_task_id, forked_at_send)
      VALUES ('fork', 'f', 'i', 'default', '/repo', 'persistent', 5, 'given', 't', 2)`);
    db.exec(`DELETE FROM jobs WHERE task_id = 't'; DELETE FROM tasks WHERE id = 't'`);
    expect(db.prepare('SELECT count(*) AS n FROM checkpoints').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM task_rewinds').get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT forked_from_task_id, forked_at_send FROM tasks WHERE id = 'fork'").get()).toEqual({
      forked_from_task_id: null,
      forked_at_send: 2,
    });
  });
});
