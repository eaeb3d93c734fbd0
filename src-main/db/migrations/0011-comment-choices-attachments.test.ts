// Migration 11 on a version-10 file with a question and an instruction: choices_json and attachments_json on
// comments, empty, JSON only.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

describe('migration 11 (from version 10 with data in it)', () => {
  it('keeps every comment of version 10 and adds choices_json and attachments_json (null, valid JSON only)', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 10);
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'routed');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'waiting_human', 'ask', 'default', NULL);
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m1', 't', 'j', 'user', 'instruction', 'i', 1);
      INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at) VALUES ('m2', 't', 'j', 'agent', 'question', 'Which?', 2);
    `);
    const before = db.prepare('SELECT * FROM comments ORDER BY id').all();

    expect(migrate(db, 11)).toEqual([11]);
    expect(db.prepare('SELECT * FROM comments ORDER BY id').all()).toEqual(
      before.map((row) => ({ ...(row as object), choices_json: null, attachments_json: null })),
    );
    expect(
      (db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === 'comments')?.strict,
    ).toBe(1);
    const choices = db.prepare(`UPDATE comments SET choices_json = ? WHERE id = 'm2'`);
    const attachments = db.prepare(`UPDATE comments SET attachments_json = ? WHERE id = 'm1'`);
    expect(() => choices.run('[not json')).toThrow(/CHECK constraint failed/);
    expect(() => attachments.run('{"name":')).toThrow(/CHECK constraint failed/);
    expect(choices.run('["Yes","No"]').changes).toBe(1);
    expect(attachments.run('[{"name":"a.txt","mediaType":"text/plain","bytes":3}]').changes).toBe(1);
    expect(db.prepare('SELECT id, choices_json, attachments_json FROM comments ORDER BY id').all()).toEqual([
      { id: 'm1', choices_json: null, attachments_json: '[{"name":"a.txt","mediaType":"text/plain","bytes":3}]' },
      { id: 'm2', choices_json: '["Yes","No"]', attachments_json: null },
    ]);
    db.close();
  });
});
