// Migration 15 on a version-14 file with approvals in it: each approval "for this task" becomes the exact grant of the
// call its card showed; other requests make none; the table is STRICT and refuses a grant without what it covers;
// tool requests get grant_options_json, empty, JSON only.
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { migrate } from './index';

describe('migration 15 (from version 14 with data in it)', () => {
  it('narrows every scope-task approval to the exact grant of its call; keeps every request as it was', () => {
    const db = new Database(path.join(tempDir(), 'maestro.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, 14);
    const request = db.prepare(
      `INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, scope, created_at, decided_at)
       VALUES (?, 't', 'j', ?, ?, ?, 's', ?, ?, 2, ?)`,
    );
    db.exec(`
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at, piece_choice)
        VALUES ('t', 'title', 'i', 'default', '/repo', 'persistent', 1, 'routed');
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, pending_invoke)
        VALUES ('j', 't', 1, 2, 'queued', NULL, 'default', 'Wakeup');
    `);
    request.run('r1', 'c1', 'run_command', '{"command":"npm test"}', 'approved', 'task', 5);
    request.run('r2', 'c2', 'write_file', '{"path":"./src/a.ts","content":"x"}', 'approved', 'task', 6);
    request.run('r3', 'c3', 'grep', '{"pattern":"TODO"}', 'approved', 'task', 7);
    request.run('r4', 'c4', 'a2a_send', '{"agent":"helper","message":"hi"}', 'approved', 'task', 8);
    request.run('r5', 'c5', 'mcp__web__fetch', '{"url":"https://example.com/"}', 'approved', 'task', 9);
    request.run('r6', 'c6', 'run_command', '{"command":"rm -rf build"}', 'approved', 'once', 10);
    request.run('r7', 'c7', 'run_command', '{"command":"curl x"}', 'denied', null, 11);
    request.run('r8', 'c8', 'run_command', '{"command":"ls"}', 'pending', null, null);
    const before = db.prepare('SELECT * FROM tool_requests ORDER BY id').all();

    expect(migrate(db, 15)).toEqual([15]);
    expect(db.prepare('SELECT * FROM tool_requests ORDER BY id').all()).toEqual(
      before.map((row) => ({ ...(row as object), grant_options_json: null })),
    );
    const setOptions = db.prepare("UPDATE tool_requests SET grant_options_json = ? WHERE id = 'r8'");
    expect(() => setOptions.run('{not json')).toThrow(/CHECK constraint failed/);
    const grants = db
      .prepare(
        'SELECT request_id, tool, kind, target_kind, target, rule, created_at, revoked_at FROM task_grants ORDER BY request_id',
      )
      .all();
    const exact = (request_id: string, tool: string, target_kind: string, target: string, created_at: number) => ({
      request_id,
      tool,
      kind: 'exact',
      target_kind,
      target,
      rule: null,
      created_at,
      revoked_at: null,
    });
    expect(grants).toEqual([
      exact('r1', 'run_command', 'command', 'npm test', 5),
      exact('r2', 'write_file', 'path', 'src/a.ts', 6),
      exact('r3', 'grep', 'path', '.', 7),
      exact('r4', 'a2a_send', 'agent', 'helper', 8),
      exact('r5', 'mcp__web__fetch', 'call', '{"url":"https://example.com/"}', 9),
    ]);

    const insert = db.prepare(
      `INSERT INTO task_grants (id, task_id, request_id, tool, kind, target_kind, target, rule, created_at)
       VALUES (?, 't', 'r6', 'run_command', ?, ?, ?, ?, 1)`,
    );
    expect(() => insert.run('g1', 'exact', null, null, null)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('g2', 'prefix', null, null, null)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('g3', 'everything', null, null, null)).toThrow(/CHECK constraint failed/);
    expect(() => insert.run('g4', 'tool', null, null, 'npm *')).toThrow(/CHECK constraint failed/);
    expect(insert.run('g5', 'prefix', null, null, 'git diff *').changes).toBe(1);
    // A grant goes with its request (and task) when they are deleted.
    db.prepare("DELETE FROM tool_requests WHERE id IN ('r1', 'r6')").run();
    expect(db.prepare("SELECT count(*) AS n FROM task_grants WHERE request_id IN ('r1', 'r6')").get()).toEqual({
      n: 0,
    });
    db.close();
  });
});
