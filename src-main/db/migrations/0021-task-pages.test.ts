// Migration 21 on a version-20 file with tasks and jobs: latest_status backfilled from each task's latest job, kept by
// the triggers as jobs are added, change status and are deleted, and the paging indexes in place.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const TABLES = ['comments', 'events', 'jobs'];
const everyRow = (db: Database.Database, tables: string[]) =>
  tables.map((t) => db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all());

const job = (id: string, task: string, at: number, status: string) =>
  `INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
     VALUES ('${id}', '${task}', ${at}, ${at}, '${status}', ${status === 'waiting_human' ? "'ask'" : 'NULL'}, 'default', 'UserSend');`;

describe('migration 21 (from version 20 with data in it)', () => {
  it('backfills latest_status from each task’s latest job, keeps it with triggers, and adds the paging indexes', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 20);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
        VALUES ('a', 'a', 'i', 'default', '/repo', 'persistent', 1),
               ('b', 'b', 'i', 'default', '/repo', 'persistent', 2),
               ('c', 'c', 'i', 'default', '/other', 'ephemeral', 3);
      ${job('a1', 'a', 10, 'failed')}
      ${job('a2', 'a', 20, 'succeeded')}
      ${job('b1', 'b', 20, 'waiting_human')}
      ${job('b0', 'b', 10, 'succeeded')}
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m', 'a', 'a1', 'user', 'instruction', 'b', 1);
      INSERT INTO events (ts, type, task_id, job_id, payload) VALUES (1, 'task.created', 'a', NULL, '{}');
    `);
    const before = everyRow(db, TABLES);
    const tasksBefore = db.prepare('SELECT * FROM tasks ORDER BY id').all() as { id: string }[];

    expect(migrate(db, 21)).toEqual([21]);
    expect(everyRow(db, TABLES)).toEqual(before);
    const latest = { a: 'succeeded', b: 'waiting_human', c: null } as Record<string, string | null>;
    expect(db.prepare('SELECT * FROM tasks ORDER BY id').all()).toEqual(
      tasksBefore.map((row) => ({ ...row, latest_status: latest[row.id] })),
    );

    const status = (id: string) =>
      (db.prepare('SELECT latest_status AS s FROM tasks WHERE id = ?').get(id) as { s: string | null }).s;
    db.exec(job('c1', 'c', 30, 'queued'));
    expect(status('c')).toBe('queued');
    db.exec(`UPDATE jobs SET status = 'running' WHERE id = 'c1'`);
    expect(status('c')).toBe('running');
    // An older job changing does not speak for the task: its latest job still does.
    db.exec(`UPDATE jobs SET status = 'cancelled' WHERE id = 'b0'`);
    expect(status('b')).toBe('waiting_human');
    db.exec(`DELETE FROM jobs WHERE id = 'a2'`);
    expect(status('a')).toBe('failed');
    db.exec(`DELETE FROM comments; DELETE FROM jobs WHERE task_id = 'a'`);
    expect(status('a')).toBeNull();
    expect(() => db.exec(`UPDATE tasks SET latest_status = 'done' WHERE id = 'a'`)).toThrow(/CHECK constraint/);

    const indexes = (
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'`).all() as {
        name: string;
      }[]
    ).map((r) => r.name);
    expect(indexes).toEqual(
      expect.arrayContaining([
        'jobs_latest_by_task',
        'tasks_page_listed',
        'tasks_page_archived',
        'tasks_page_by_status',
        'tasks_by_workspace',
      ]),
    );
    db.close();
  });
});
