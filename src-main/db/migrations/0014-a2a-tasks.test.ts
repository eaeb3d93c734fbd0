// Migration 14 on a version-13 file with a task, its job and comments: a2a_tasks and a2a_messages, empty, STRICT,
// their rows gone with the task's jobs and comments.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['tasks', 'jobs', 'comments'];
const everyRow = (db: Database.Database) => TABLES.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all());

describe('migration 14 (from version 13 with data in it)', () => {
  it('keeps every row of version 13 and adds a2a_tasks and a2a_messages, which go with their jobs and comments', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 13);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'queued', 'default', 'PodEvent');
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m', 't', 'j', 'agent', 'instruction', 'i', 1);
    `);
    const before = everyRow(db);

    expect(migrate(db, 14)).toEqual([14]);
    expect(everyRow(db)).toEqual(before);
    const tables = db.pragma('table_list') as { name: string; strict: number }[];
    for (const name of ['a2a_tasks', 'a2a_messages']) {
      expect(tables.find((t) => t.name === name)?.strict, name).toBe(1);
      expect(db.prepare(`SELECT count(*) AS n FROM ${name}`).get(), name).toEqual({ n: 0 });
    }
    const task = db.prepare(
      'INSERT INTO a2a_tasks (id, context_id, task_id, first_job_id, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    expect(() => task.run('a', 'c', 't', 'no-such-job', 3)).toThrow(/FOREIGN KEY/);
    expect(() => task.run('a', 'c', 't', 'j', 'now')).toThrow(/cannot store TEXT value in INTEGER column/);
    task.run('a', 'c', 't', 'j', 3);
    db.prepare('INSERT INTO a2a_messages (comment_id, message_id) VALUES (?, ?)').run('m', 'msg-1');

    // Deleting a task removes comments, then jobs, then the task (tasks repo): the A2A rows go with them.
    db.exec(
      `DELETE FROM comments WHERE task_id = 't'; DELETE FROM jobs WHERE task_id = 't'; DELETE FROM tasks WHERE id = 't';`,
    );
    expect(db.prepare('SELECT count(*) AS n FROM a2a_tasks').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM a2a_messages').get()).toEqual({ n: 0 });
    db.close();
  });
});
