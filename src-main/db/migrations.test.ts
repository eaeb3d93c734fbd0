import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { DatabaseOpenError, openDatabase } from './connection';
import { MIGRATIONS, migrate, SCHEMA_VERSION, SchemaTooNewError } from './migrations';

/** The tables of migration 1. */
const TABLES = ['comments', 'events', 'jobs', 'package_requests', 'tasks', 'tool_requests'];

function rawDb(): { db: Database.Database; file: string } {
  const file = path.join(tempDir(), 'maestro.db');
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  return { db, file };
}

function strictness(db: Database.Database): { name: string; strict: number }[] {
  return (db.pragma('table_list') as { name: string; strict: number; schema: string }[])
    .filter((t) => t.schema === 'main' && !t.name.startsWith('sqlite_'))
    .sort((a, b) => a.name.localeCompare(b.name));
}

const userVersion = (db: Database.Database) => db.pragma('user_version', { simple: true }) as number;

describe('migration 1 (from an empty file)', () => {
  it('creates its tables as STRICT and sets user_version to 1', () => {
    const { db } = rawDb();
    expect(userVersion(db)).toBe(0);
    expect(migrate(db, 1)).toEqual([1]);
    expect(userVersion(db)).toBe(1);
    const tables = strictness(db);
    expect(tables.map((t) => t.name)).toEqual(TABLES);
    for (const t of tables) expect(t.strict, `${t.name} is STRICT`).toBe(1);
    // Running it again applies nothing.
    expect(migrate(db, 1)).toEqual([]);
    db.close();
  });

  it('STRICT rejects a value of the wrong type', () => {
    const { db } = rawDb();
    migrate(db);
    expect(() =>
      db
        .prepare(
          `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
           VALUES ('t', 't', 'i', 'p', '/w', 'persistent', 'yesterday')`,
        )
        .run(),
    ).toThrow(/cannot store TEXT value in INTEGER column/);
    db.close();
  });

  it('CHECK constraints reject bad statuses, waiting_human without wait_reason, retry without next_retry_at (A#4)', () => {
    const { db } = rawDb();
    migrate(db);
    db.exec(`INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
             VALUES ('t', 't', 'i', 'p', '/w', 'persistent', 1)`);
    const insertJob = db.prepare(
      `INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, next_retry_at, piece_id)
       VALUES (@id, 't', 1, 1, @status, @waitReason, @nextRetryAt, 'p')`,
    );
    const job = (status: string, waitReason: string | null = null, nextRetryAt: number | null = null) =>
      insertJob.run({ id: `j-${status}-${waitReason}-${nextRetryAt}`, status, waitReason, nextRetryAt });
    expect(() => job('paused')).toThrow(/CHECK constraint failed/);
    expect(() => job('waiting_human')).toThrow(/CHECK constraint failed/);
    expect(() => job('waiting_human', 'sleeping')).toThrow(/CHECK constraint failed/);
    expect(() => job('queued', 'ask')).toThrow(/CHECK constraint failed/);
    expect(() => job('retry')).toThrow(/CHECK constraint failed/);
    expect(() => job('queued', null, 5)).toThrow(/CHECK constraint failed/);
    // The well-formed ones pass.
    job('waiting_human', 'tool_request');
    job('retry', null, 5);
    job('queued');
    expect(db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 3 });
    // Bad comment author/kind, request status and workspace kind are rejected too.
    expect(() =>
      db.exec(
        `INSERT INTO comments (id, task_id, author, kind, body, created_at) VALUES ('c', 't', 'bot', 'comment', 'b', 1)`,
      ),
    ).toThrow(/CHECK constraint failed/);
    expect(() =>
      db.exec(
        `INSERT INTO comments (id, task_id, author, kind, body, created_at) VALUES ('c', 't', 'user', 'chat', 'b', 1)`,
      ),
    ).toThrow(/CHECK constraint failed/);
    expect(() =>
      db.exec(`INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
               VALUES ('t2', 't', 'i', 'p', '/w', 'cloud', 1)`),
    ).toThrow(/CHECK constraint failed/);
    expect(() =>
      db.exec(`INSERT INTO package_requests (id, task_id, job_id, call_id, manager, name, reason, status, created_at)
               VALUES ('p', 't', 'j-queued-null-null', 'c', 'cargo', 'x', 'r', 'pending', 1)`),
    ).toThrow(/CHECK constraint failed/);
    expect(() =>
      db.exec(`INSERT INTO tool_requests (id, task_id, job_id, call_id, tool, args_json, summary, status, created_at)
               VALUES ('r', 't', 'j-queued-null-null', 'c', 'run_command', '{}', 's', 'maybe', 1)`),
    ).toThrow(/CHECK constraint failed/);
    db.close();
  });

  it('foreign keys reject a job of an unknown task', () => {
    const { db } = rawDb();
    migrate(db);
    expect(() =>
      db.exec(`INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id)
               VALUES ('j', 'nope', 1, 1, 'queued', 'p')`),
    ).toThrow(/FOREIGN KEY constraint failed/);
    db.close();
  });

  it('a migration that fails leaves the file at its previous version, with nothing of it applied', () => {
    const { db } = rawDb();
    // A stray table makes migration 1 fail half way: tasks, jobs, … are created, then CREATE TABLE events collides.
    db.exec('CREATE TABLE events (x TEXT)');
    expect(() => migrate(db)).toThrow(/already exists/);
    expect(userVersion(db)).toBe(0);
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map(
      (r) => r.name,
    );
    expect(names).toEqual(['events']);
    db.close();
  });
});

describe('schema version', () => {
  it('an empty file migrates through every migration in order, each table STRICT', () => {
    const { db } = rawDb();
    expect(migrate(db)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    for (const t of strictness(db)) expect(t.strict, `${t.name} is STRICT`).toBe(1);
    expect(migrate(db)).toEqual([]);
    db.close();
  });

  it('SCHEMA_VERSION is the number of migrations', () => {
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(1);
  });

  it('a file with a newer user_version is refused with an error naming the file, and left untouched', () => {
    const { db, file } = rawDb();
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(SchemaTooNewError);
    db.close();

    let error: unknown;
    try {
      openDatabase(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as DatabaseOpenError).file).toBe(file);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/newer than this build/);

    const again = new Database(file);
    expect(userVersion(again)).toBe(SCHEMA_VERSION + 1);
    expect(again.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get()).toEqual({ n: 0 });
    again.close();
  });
});

describe('migration 2 (from version 1 with data in it)', () => {
  it('adds log_entries as STRICT, keeps the rows of version 1, and checks kinds', () => {
    const { db } = rawDb();
    migrate(db, 1);
    db.exec(`INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
             VALUES ('t', 't', 'i', 'p', '/w', 'persistent', 1);
             INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id)
             VALUES ('j', 't', 1, 1, 'queued', 'p');`);
    expect(migrate(db, 2)).toEqual([2]);
    expect(userVersion(db)).toBe(2);
    expect(db.prepare('SELECT count(*) AS n FROM jobs').get()).toEqual({ n: 1 });
    const table = strictness(db).find((t) => t.name === 'log_entries');
    expect(table?.strict).toBe(1);
    const insert = db.prepare(
      `INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind, attempt) VALUES ('t', 'j', ?, 1, ?, ?)`,
    );
    insert.run('Invoke', 'UserSend', null);
    insert.run('LlmCall', null, 1);
    expect(() => insert.run('Invoke', null, null)).toThrow(/CHECK constraint/);
    expect(() => insert.run('Chat', null, null)).toThrow(/CHECK constraint/);
    expect(() => insert.run('LlmCall', null, null)).toThrow(/CHECK constraint/);
    expect(() => insert.run('Invoke', 'Nudge', null)).toThrow(/CHECK constraint/);
    db.close();
  });
});
