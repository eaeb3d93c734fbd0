// Migration 4 on a version-3 file with tasks in a space: how each task's piece was chosen.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const CHOICES = ['given', 'pinned', 'default', 'route', 'routed'];

describe('migration 4 (from version 3 with data in it)', () => {
  it("keeps every task and its space, marks earlier tasks 'given', and takes only the choices it knows", () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 3);
    db.exec(`INSERT INTO spaces (id, name, folder, pinned_piece_id, created_at) VALUES ('s', 'repo', '/repo', 'review', 1);
             INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, space_id)
               VALUES ('in-space', 't', 'i', 'review', '/repo', 'persistent', 1, 's'),
                      ('alone', 't', 'i', 'default', '/tmp/x', 'ephemeral', 2, NULL);`);
    const before = db.prepare('SELECT * FROM tasks ORDER BY id').all() as Record<string, unknown>[];

    expect(migrate(db, 4)).toEqual([4]);
    expect(db.prepare('SELECT * FROM tasks ORDER BY id').all()).toEqual(
      before.map((task) => ({ ...task, piece_choice: 'given' })),
    );
    const insert = db.prepare(
      `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
       VALUES (?, 't', 'i', 'p', '/w', 'persistent', 3, ?)`,
    );
    for (const choice of CHOICES) insert.run(`t-${choice}`, choice);
    expect(() => insert.run('t-guessed', 'guessed')).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('t-null', null)).toThrow(/NOT NULL constraint failed: tasks.piece_choice/);
    expect(db.prepare(`SELECT count(*) AS n FROM tasks`).get()).toEqual({ n: 2 + CHOICES.length });
    db.close();
  });
});
