// Migration 2 on a version-1 file with data, and the proof that files made by its first text behave the same.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { sql } from './0002-log-entries';
import { migrate } from './index';

function emptyDb(): Database.Database {
  const db = new Database(path.join(tempDir(), 'maestro.db'));
  db.pragma('foreign_keys = ON');
  return db;
}

/** Migration 2 as first shipped (a60c74a); 7f4cb55 dropped AUTOINCREMENT from its text. */
const FIRST_SHIPPED_SEQ = 'seq INTEGER PRIMARY KEY AUTOINCREMENT,';
const TODAY_SEQ =
  'seq INTEGER PRIMARY KEY, -- rows are never deleted, so seq only grows (no AUTOINCREMENT bookkeeping per insert)';

/** A version-2 file as the first release of migration 2 left it. */
function firstShippedAtVersion2(): Database.Database {
  if (!sql.includes(TODAY_SEQ)) throw new Error('migration 2 no longer reads as this test expects');
  const db = emptyDb();
  migrate(db, 1);
  db.exec(`BEGIN; ${sql.replace(TODAY_SEQ, FIRST_SHIPPED_SEQ)}; PRAGMA user_version = 2; COMMIT;`);
  return db;
}

function insertTaskAndJob(db: Database.Database, id: string): void {
  db.prepare(
    `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
     VALUES (?, 't', 'i', 'p', '/w', 'persistent', 1)`,
  ).run(id);
  db.prepare(
    `INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES (?, ?, 1, 1, 'queued', 'p')`,
  ).run(`${id}-job`, id);
}

/** Appends an Invoke, an AgentTurn and an LlmCall for `task` the way the log repository does (seq left to SQLite). */
function appendTurn(db: Database.Database, task: string): number[] {
  const insert = db.prepare(
    `INSERT INTO log_entries (task_id, job_id, kind, invoke_seq, agent_turn_seq, ts, invoke_kind, body, attempt,
       outcome, prompt_tokens) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)`,
  );
  const job = `${task}-job`;
  const invoke = Number(
    insert.run(task, job, 'Invoke', null, null, 'UserSend', '"hi"', null, null, null).lastInsertRowid,
  );
  const turn = Number(insert.run(task, job, 'AgentTurn', invoke, null, null, '{}', null, null, null).lastInsertRowid);
  const call = Number(insert.run(task, job, 'LlmCall', invoke, turn, null, null, 1, 'ok', 12).lastInsertRowid);
  return [invoke, turn, call];
}

const rows = (db: Database.Database) => db.prepare('SELECT * FROM log_entries ORDER BY seq').all();

const schema = (db: Database.Database) =>
  db
    .prepare<[], { name: string; sql: string }>(
      `SELECT name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name`,
    )
    .all();

/** Every .ts product file under src-main, migrations aside. */
function productSources(dir = path.resolve(__dirname, '..', '..')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return file === __dirname ? [] : productSources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

describe('migration 2 (from version 1 with data in it)', () => {
  it('adds log_entries as STRICT, keeps the rows of version 1, and checks kinds', () => {
    const db = emptyDb();
    migrate(db, 1);
    insertTaskAndJob(db, 't');
    db.exec(`INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at)
             VALUES ('c', 't', 't-job', 'user', 'instruction', 'do it', 1);
             INSERT INTO events (ts, type, task_id, job_id, payload) VALUES (1, 'task.created', 't', NULL, '{}');`);
    const before = ['tasks', 'jobs', 'comments', 'events'].map((t) => db.prepare(`SELECT * FROM ${t}`).all());
    expect(migrate(db, 2)).toEqual([2]);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(['tasks', 'jobs', 'comments', 'events'].map((t) => db.prepare(`SELECT * FROM ${t}`).all())).toEqual(before);
    const table = (db.pragma('table_list') as { name: string; strict: number }[]).find((t) => t.name === 'log_entries');
    expect(table?.strict).toBe(1);
    const insert = db.prepare(
      `INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind, attempt) VALUES ('t', ?, ?, 1, ?, ?)`,
    );
    insert.run('t-job', 'Invoke', 'UserSend', null);
    insert.run('t-job', 'LlmCall', null, 1);
    expect(() => insert.run('t-job', 'Invoke', null, null)).toThrow(/CHECK constraint/);
    expect(() => insert.run('t-job', 'Chat', null, null)).toThrow(/CHECK constraint/);
    expect(() => insert.run('t-job', 'LlmCall', null, null)).toThrow(/CHECK constraint/);
    expect(() => insert.run('t-job', 'Invoke', 'Nudge', null)).toThrow(/CHECK constraint/);
    expect(() => insert.run('nope', 'Invoke', 'UserSend', null)).toThrow(/FOREIGN KEY constraint/);
    expect(rows(db)).toHaveLength(2);
    db.close();
  });

  it('a file made by its first text (seq AUTOINCREMENT) numbers, keeps and migrates log entries as one made today', () => {
    const first = firstShippedAtVersion2();
    const today = emptyDb();
    migrate(today, 2);
    for (const db of [first, today]) {
      insertTaskAndJob(db, 'a');
      insertTaskAndJob(db, 'b');
    }
    // Entries written at version 2, then the later migrations, then more entries: the same seqs and rows in both.
    const written = [first, today].map((db) => [...appendTurn(db, 'a'), ...appendTurn(db, 'b')]);
    expect(migrate(first)).toEqual(migrate(today));
    for (const [i, db] of [first, today].entries()) written[i]?.push(...appendTurn(db, 'a'));
    expect(written[0]).toEqual(Array.from({ length: 9 }, (_, i) => i + 1));
    expect(written[1]).toEqual(written[0]);
    expect(rows(first)).toEqual(rows(today));
    // The schemas differ in that one keyword of log_entries (and its row in sqlite_sequence), nothing else.
    expect(schema(first).find((s) => s.name === 'log_entries')?.sql).toContain(FIRST_SHIPPED_SEQ);
    const normalized = schema(first).map((s) =>
      s.name === 'log_entries' ? { ...s, sql: s.sql.replace(FIRST_SHIPPED_SEQ, TODAY_SEQ) } : s,
    );
    expect(normalized).toEqual(schema(today));
    first.close();
    today.close();
  });

  // Deleting a task (db/repos/tasks.ts) takes all of its entries. SQLite numbers a new row max(seq) + 1 over the rows
  // left, so seq still only grows among them; only the deleted task's numbers may come again (AUTOINCREMENT would not
  // reuse them), and nothing refers to those any more: invoke_seq and agent_turn_seq point inside the same task.
  it('the two texts stay alike because no product code renumbers log entries, and only a task delete removes them, whole', () => {
    const writes =
      /\b(DELETE\s+FROM|REPLACE\s+INTO|OR\s+REPLACE\s+INTO|UPDATE|DROP\s+TABLE|ALTER\s+TABLE)\s+log_entries\b[^`'\n]*/gi;
    const sources = productSources();
    expect(sources.some((file) => fs.readFileSync(file, 'utf8').includes('INSERT INTO log_entries'))).toBe(true);
    const found = sources.flatMap((file) =>
      [...fs.readFileSync(file, 'utf8').matchAll(writes)].map((m) => `${path.relative(__dirname, file)}: ${m[0]}`),
    );
    // The statement as written in the repository (its list of task ids interpolated from a constant).
    expect(found).toEqual([`../repos/tasks.ts: DELETE FROM log_entries WHERE task_id \${inTrees}`]);
  });
});
