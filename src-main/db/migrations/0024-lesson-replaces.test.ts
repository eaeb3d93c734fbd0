// Migration 24 on a version-23 file with a lesson: the lesson kept with no `replaces`; a later lesson may name it, a
// name of no lesson is refused, and deleting the earlier lesson leaves the later one with none.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

const LESSON = `INSERT INTO lessons (id, text, evidence, status, scope, workspace_path, piece_id, created_at)
  VALUES (?, ?, '', 'approved', 'workspace', '/repo', 'default', 1)`;

describe('migration 24 (from version 23 with a lesson in it)', () => {
  it('keeps every lesson without `replaces`; a later one names an earlier one; SET NULL when that one goes', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 23);
    db.prepare(LESSON).run('old', 'Run the tests with npm test.');
    const before = db.prepare('SELECT * FROM lessons').all() as Record<string, unknown>[];

    expect(migrate(db, 24)).toEqual([24]);
    expect(db.prepare('SELECT * FROM lessons').all()).toEqual(before.map((l) => ({ ...l, replaces: null })));

    db.prepare(LESSON).run('new', 'Run the tests with npm run test:unit.');
    db.prepare(`UPDATE lessons SET replaces = 'old' WHERE id = 'new'`).run();
    expect(() => db.prepare(`UPDATE lessons SET replaces = 'nope' WHERE id = 'new'`).run()).toThrow(
      /FOREIGN KEY constraint failed/,
    );
    db.prepare(`DELETE FROM lessons WHERE id = 'old'`).run();
    expect(db.prepare(`SELECT replaces FROM lessons WHERE id = 'new'`).get()).toEqual({ replaces: null });
  });
});
