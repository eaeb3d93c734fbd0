// Migration 23 on a version-22 file with a task and its job: every row kept, the transcript tables empty; chunks
// read back in seq order; a chunk or point of a task that does not exist refused, an empty chunk refused, one point
// per name.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

describe('migration 23 (from version 22 with data in it)', () => {
  it('keeps every task and job; transcript_chunks and transcript_points start empty, hold to their task', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 22);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'given');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j1', 't', 1, 2, 'succeeded', 'default');
    `);
    const before = [db.prepare('SELECT * FROM tasks').all(), db.prepare('SELECT * FROM jobs').all()];

    expect(migrate(db, 23)).toEqual([23]);
    expect([db.prepare('SELECT * FROM tasks').all(), db.prepare('SELECT * FROM jobs').all()]).toEqual(before);
    expect(db.prepare('SELECT count(*) AS n FROM transcript_chunks').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM transcript_points').get()).toEqual({ n: 0 });

    const chunk = db.prepare('INSERT INTO transcript_chunks (task_id, body, created_at) VALUES (?, ?, 1)');
    chunk.run('t', 'a\n');
    chunk.run('t', 'b\nc\n');
    expect(() => chunk.run('nope', 'x\n')).toThrow(/FOREIGN KEY constraint failed/);
    expect(() => chunk.run('t', '')).toThrow(/CHECK constraint failed/);
    const text = db
      .prepare('SELECT body FROM transcript_chunks WHERE task_id = ? ORDER BY seq')
      .pluck()
      .all('t')
      .join('');
    expect(text).toBe('a\nb\nc\n');

    const point = db.prepare('INSERT INTO transcript_points (task_id, name, body, created_at) VALUES (?, ?, ?, 1)');
    point.run('t', '7', 'a\n');
    expect(() => point.run('t', '7', 'b\n')).toThrow(/UNIQUE constraint failed/);
    expect(() => point.run('t', '', 'b\n')).toThrow(/CHECK constraint failed/);
    expect(() => point.run('nope', '8', 'b\n')).toThrow(/FOREIGN KEY constraint failed/);
    // A task with a transcript cannot be deleted past it: removeTrees deletes its rows first.
    expect(() => db.exec(`DELETE FROM jobs; DELETE FROM tasks WHERE id = 't'`)).toThrow(
      /FOREIGN KEY constraint failed/,
    );
  });
});
