// Migration 3 on a version-2 file with tasks, jobs and log entries: spaces made from the folders tasks used.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

function dbAt(version: number): Database.Database {
  const db = new Database(path.join(tempDir(), 'maestro.db'));
  db.pragma('foreign_keys = ON');
  migrate(db, version);
  return db;
}

function insertTask(db: Database.Database, id: string, folder: string, kind: string, createdAt: number): void {
  db.prepare(
    `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
     VALUES (?, 't', 'i', 'p', ?, ?, ?)`,
  ).run(id, folder, kind, createdAt);
}

describe('migration 3 (from version 2 with data in it)', () => {
  it('makes one space per persistent folder (the earliest task’s time, the last segment as name) and links its tasks', () => {
    const db = dbAt(2);
    insertTask(db, 'late', '/srv/repo', 'persistent', 300);
    insertTask(db, 'early', '/srv/repo', 'persistent', 100);
    insertTask(db, 'top', 'repo2', 'persistent', 200);
    insertTask(db, 'trailing', '/srv/other/', 'persistent', 400);
    insertTask(db, 'scratch', '/data/workspaces/scratch', 'ephemeral', 500);
    db.exec(`INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j', 'early', 1, 1, 'queued', 'p');
             INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind) VALUES ('early', 'j', 'Invoke', 1, 'UserSend');`);
    const log = db.prepare('SELECT * FROM log_entries').all();

    expect(migrate(db, 3)).toEqual([3]);
    expect(db.prepare('SELECT name, folder, pinned_piece_id, created_at FROM spaces ORDER BY folder').all()).toEqual([
      { name: '/srv/other/', folder: '/srv/other/', pinned_piece_id: null, created_at: 400 },
      { name: 'repo', folder: '/srv/repo', pinned_piece_id: null, created_at: 100 },
      { name: 'repo2', folder: 'repo2', pinned_piece_id: null, created_at: 200 },
    ]);
    expect(
      db.prepare('SELECT t.id, s.folder FROM tasks t LEFT JOIN spaces s ON s.id = t.space_id ORDER BY t.id').all(),
    ).toEqual([
      { id: 'early', folder: '/srv/repo' },
      { id: 'late', folder: '/srv/repo' },
      { id: 'scratch', folder: null },
      { id: 'top', folder: 'repo2' },
      { id: 'trailing', folder: '/srv/other/' },
    ]);
    for (const { id } of db.prepare('SELECT id FROM spaces').all() as { id: string }[])
      expect(id).toMatch(/^spc_[0-9a-f]{24}$/);
    expect(db.prepare('SELECT * FROM log_entries').all()).toEqual(log);
    db.close();
  });

  it('spaces is STRICT, its name is 1–200 characters, a folder belongs to one space, and tasks point at real spaces', () => {
    const db = dbAt(3);
    expect(
      (db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === 'spaces')?.strict,
    ).toBe(1);
    const space = db.prepare(`INSERT INTO spaces (id, name, folder, created_at) VALUES (?, ?, ?, 1)`);
    space.run('s1', 'a', '/a');
    expect(() => space.run('s2', '', '/b')).toThrow(/CHECK constraint failed/);
    expect(() => space.run('s2', 'x'.repeat(201), '/b')).toThrow(/CHECK constraint failed/);
    expect(() => space.run('s2', 'again', '/a')).toThrow(/UNIQUE constraint failed: spaces.folder/);
    insertTask(db, 't', '/a', 'persistent', 1);
    db.exec(`UPDATE tasks SET space_id = 's1' WHERE id = 't'`);
    expect(() => db.exec(`UPDATE tasks SET space_id = 'nope' WHERE id = 't'`)).toThrow(/FOREIGN KEY constraint failed/);
    db.close();
  });
});
