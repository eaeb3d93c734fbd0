// PostgreSQL's latest schema against SQLite's latest (migration 1 copies SQLite's 21; later ones follow SQLite's one by one): the same tables and columns (names,
// order, NOT NULL, defaults), indexes, foreign keys with their ON DELETE, triggers; the same CHECKs refusing the same
// rows; and the latest_status triggers keeping tasks.latest_status the same through the same writes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPg, pgUrlForTest } from '../../../../test-support/pg-test-db';
import { migrate, SCHEMA_VERSION } from '../index';
import { migratePostgres } from './index';

interface Column {
  name: string;
  notNull: boolean;
  default: string | null;
  type: 'TEXT' | 'INTEGER';
}

// One SQLite file and one PostgreSQL database for the whole file: the tests below write to both in turn.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-pg-parity-'));
let lite: Database.Database;
let client: pg.Client;

beforeAll(async () => {
  if (!hasPg()) return;
  lite = new Database(path.join(dir, 'maestro.db'));
  lite.pragma('foreign_keys = ON');
  migrate(lite, SCHEMA_VERSION); // the latest of each: PostgreSQL's migration N + 1 is SQLite's N + 21 (index.ts)
  // A database whose own collation is a person's (en-US), not C: the schema's columns must sort bytewise regardless.
  client = new pg.Client({ connectionString: await pgUrlForTest({ icuLocale: 'en-US' }) });
  await client.connect();
  await migratePostgres(client);
});

afterAll(async () => {
  lite?.close();
  await client?.end();
  fs.rmSync(dir, { recursive: true, force: true });
});

const q = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
  (await client.query<T>(sql, params)).rows;

const liteTables = () =>
  (
    lite
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as { name: string }[]
  ).map((r) => r.name);

function liteColumns(table: string): Column[] {
  const rows = lite.prepare('SELECT * FROM pragma_table_info(?) ORDER BY cid').all(table) as {
    name: string;
    type: string;
    notnull: number;
    dflt_value: string | null;
    pk: number;
  }[];
  return rows.map((r) => ({
    name: r.name,
    notNull: r.notnull === 1 || r.pk > 0,
    default: r.dflt_value,
    type: r.type as Column['type'],
  }));
}

async function pgColumns(table: string): Promise<Column[]> {
  const rows = await q<{
    name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
    is_identity: string;
    collation_name: string | null;
  }>(
    `SELECT column_name AS name, data_type, is_nullable, column_default, is_identity, collation_name
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows
    .filter((r) => r.name !== 'rowid')
    .map((r) => {
      if (r.data_type === 'text') expect(r.collation_name, `${table}.${r.name} sorts bytewise`).toBe('C');
      return {
        name: r.name,
        notNull: r.is_nullable === 'NO',
        // 'run'::text → 'run', as SQLite reports it.
        default: r.column_default?.replace(/::text$/, '') ?? null,
        type:
          r.data_type === 'text'
            ? 'TEXT'
            : ((['bigint', 'integer'].includes(r.data_type) ? 'INTEGER' : r.data_type) as Column['type']),
      };
    });
}

describe.skipIf(!hasPg())('PostgreSQL migration 1 is SQLite migration 21 (real PostgreSQL 15)', () => {
  it('has the same tables, and in each the same columns in the same order, NOT NULLs, defaults and types', async () => {
    const pgTables = (
      await q<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables
           WHERE table_schema = 'public' AND table_name <> 'maestro_schema' ORDER BY 1`,
      )
    ).map((r) => r.name);
    expect(pgTables).toEqual(liteTables());
    for (const table of liteTables()) expect(await pgColumns(table), table).toEqual(liteColumns(table));
  });

  it('gives every table a rowid, the INTEGER PRIMARY KEY itself where SQLite’s rowid is one', async () => {
    const rows = await q<{
      table_name: string;
      is_identity: string;
      is_generated: string;
      generation_expression: string;
    }>(
      `SELECT table_name, is_identity, is_generated, generation_expression FROM information_schema.columns
         WHERE table_schema = 'public' AND column_name = 'rowid' AND table_name <> 'maestro_schema' ORDER BY 1`,
    );
    expect(rows.map((r) => r.table_name)).toEqual(liteTables());
    const aliases = Object.fromEntries(
      rows.filter((r) => r.is_generated === 'ALWAYS').map((r) => [r.table_name, r.generation_expression]),
    );
    expect(aliases).toEqual({ caller_actions: 'id', events: 'seq', log_entries: 'seq', transcript_chunks: 'seq' });
    for (const r of rows.filter((r) => r.is_generated !== 'ALWAYS')) expect(r.is_identity, r.table_name).toBe('YES');
  });

  it('has the same indexes by name, on the same columns, partial where SQLite’s are', async () => {
    const liteIndexes = (
      lite.prepare(`SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL`).all() as {
        name: string;
        tbl_name: string;
        sql: string;
      }[]
    ).map((i) => ({
      name: i.name,
      table: i.tbl_name,
      columns: (lite.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(i.name) as { name: string }[])
        .map((c) => c.name)
        .join(','),
      partial: / WHERE /i.test(i.sql),
    }));
    const pgIndexes = await q<{ name: string; table: string; columns: string; partial: boolean }>(
      `SELECT ic.relname AS name, t.relname AS table,
              (SELECT string_agg(a.attname, ',' ORDER BY k.n) FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
                 JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS columns,
              x.indpred IS NOT NULL AS partial
         FROM pg_index x JOIN pg_class ic ON ic.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_namespace ns ON ns.oid = t.relnamespace
        WHERE ns.nspname = 'public' AND t.relname <> 'maestro_schema'
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    );
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(pgIndexes.sort(byName)).toEqual(liteIndexes.sort(byName));
    expect(liteIndexes.length).toBeGreaterThan(30);
  });

  it('has the same foreign keys, each with the same ON DELETE', async () => {
    const liteKeys = liteTables()
      .flatMap((table) =>
        (
          lite.prepare('SELECT * FROM pragma_foreign_key_list(?)').all(table) as {
            from: string;
            table: string;
            to: string;
            on_delete: string;
          }[]
        ).map((k) => `${table}.${k.from} -> ${k.table}.${k.to} ON DELETE ${k.on_delete}`),
      )
      .sort();
    const ACTIONS: Record<string, string> = {
      a: 'NO ACTION',
      c: 'CASCADE',
      n: 'SET NULL',
      r: 'RESTRICT',
      d: 'SET DEFAULT',
    };
    const pgKeys = (
      await q<{ from_table: string; from_col: string; to_table: string; to_col: string; del: string }>(
        `SELECT c.conrelid::regclass::text AS from_table, fa.attname AS from_col,
                c.confrelid::regclass::text AS to_table, ta.attname AS to_col, c.confdeltype AS del
           FROM pg_constraint c
           JOIN pg_attribute fa ON fa.attrelid = c.conrelid AND fa.attnum = c.conkey[1]
           JOIN pg_attribute ta ON ta.attrelid = c.confrelid AND ta.attnum = c.confkey[1]
          WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace`,
      )
    )
      .map((k) => `${k.from_table}.${k.from_col} -> ${k.to_table}.${k.to_col} ON DELETE ${ACTIONS[k.del]}`)
      .sort();
    expect(pgKeys).toEqual(liteKeys);
    expect(liteKeys).toContain('lessons.source_task_id -> tasks.id ON DELETE SET NULL');
  });

  it('has SQLite’s triggers under their names, and the events notifier', async () => {
    const liteTriggers = (
      lite.prepare(`SELECT tbl_name || '.' || name AS t FROM sqlite_master WHERE type = 'trigger'`).all() as {
        t: string;
      }[]
    ).map((r) => r.t);
    const pgTriggers = (
      await q<{ t: string }>(
        `SELECT tgrelid::regclass::text || '.' || tgname AS t FROM pg_trigger
           WHERE NOT tgisinternal AND tgrelid::regclass::text <> 'maestro_schema'`,
      )
    ).map((r) => r.t);
    expect(pgTriggers.sort()).toEqual([...liteTriggers, 'events.events_notify'].sort());
  });

  it('refuses and accepts the same rows by its CHECKs, foreign keys and NOT NULLs', async () => {
    const setup = `
      INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
        VALUES ('t', 't', 'i', 'default', '/repo', 'persistent', 1);
      INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id) VALUES ('j', 't', 1, 1, 'queued', 'default');
      INSERT INTO callers (id, name, role, spaces, token_hash, created_at)
        VALUES ('c', 'n', 'script', '"all"', '${'a'.repeat(64)}', 1);`;
    lite.exec(setup);
    await client.query(setup);
    const job = (id: string, status: string, extra = '') =>
      `INSERT INTO jobs (id, task_id, created_at, updated_at, status, piece_id${extra ? `, ${extra.split('=')[0]}` : ''})
         VALUES ('${id}', 't', 2, 2, '${status}', 'default'${extra ? `, ${extra.split('=')[1]}` : ''})`;
    const caller = (id: string, spaces: string, name = 'n') =>
      `INSERT INTO callers (id, name, role, spaces, token_hash, created_at)
         VALUES ('${id}', '${name}', 'person', '${spaces}', '${id.padEnd(64, '0')}', 1)`;
    const cases: [string, boolean][] = [
      [job('j1', 'waiting_human'), false],
      [job('j2', 'waiting_human', `wait_reason='ask'`), true],
      [job('j3', 'queued', `wait_reason='ask'`), false],
      [job('j4', 'retry'), false],
      [job('j5', 'retry', 'next_retry_at=5'), true],
      [job('j6', 'done'), false],
      [job('j7', 'queued', `kind='reflection'`), true],
      [job('j8', 'queued', `kind='other'`), false],
      [job('j9', 'queued', `task_id='nope'`.replace('task_id', 'continued_from_job_id')), false],
      [caller('c1', '[]'), true],
      [caller('c2', '["s1"]'), true],
      [caller('c3', '{"a":1}'), false],
      [caller('c4', '"some"'), false],
      [caller('c5', '[1,'), false],
      [caller('c6', '[]', ''), false],
      [caller('c7', '[]', 'x'.repeat(201)), false],
      [
        `INSERT INTO callers (id, name, role, spaces, token_hash, created_at) VALUES ('c8', 'n', 'person', '[]', 'short', 1)`,
        false,
      ],
      [`INSERT INTO job_guards (job_id, state, updated_at) VALUES ('j', '{}', 1)`, true],
      [`INSERT INTO job_guards (job_id, state, updated_at) VALUES ('j7', '[]', 1)`, false],
      [`INSERT INTO job_guards (job_id, state, updated_at) VALUES ('j7', '1', 1)`, false],
      [`INSERT INTO job_guards (job_id, state, updated_at) VALUES ('nope', '{}', 1)`, false],
      [
        `INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at, choices_json)
          VALUES ('m1', 't', 'j', 'user', 'comment', 'b', 1, '["a","b"]')`,
        true,
      ],
      [
        `INSERT INTO comments (id, task_id, job_id, author, kind, body, created_at, choices_json)
          VALUES ('m2', 't', 'j', 'user', 'comment', 'b', 1, '["a",')`,
        false,
      ],
      [
        `INSERT INTO comments (id, task_id, author, kind, body, created_at) VALUES ('m3', 't', 'robot', 'comment', 'b', 1)`,
        false,
      ],
      [
        `INSERT INTO comments (id, task_id, author, kind, body, created_at) VALUES ('m4', 't', 'user', 'comment', NULL, 1)`,
        false,
      ],
      [`UPDATE tasks SET forked_at_send = 0 WHERE id = 't'`, false],
      [`UPDATE tasks SET latest_status = 'done' WHERE id = 't'`, false],
      [`UPDATE tasks SET piece_choice = 'routed' WHERE id = 't'`, true],
      [`INSERT INTO log_entries (task_id, job_id, kind, ts) VALUES ('t', 'j', 'Invoke', 1)`, false],
      [
        `INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind) VALUES ('t', 'j', 'Invoke', 1, 'UserSend')`,
        true,
      ],
      [`INSERT INTO log_entries (task_id, job_id, kind, ts) VALUES ('t', 'j', 'LlmCall', 1)`, false],
      [`INSERT INTO log_entries (task_id, job_id, kind, ts, attempt) VALUES ('t', 'j', 'LlmCall', 1, 1)`, true],
      [
        `INSERT INTO task_rewinds (id, task_id, send, from_seq, until_seq, created_at) VALUES ('r1', 't', 1, 5, 5, 1)`,
        false,
      ],
      [
        `INSERT INTO task_rewinds (id, task_id, send, from_seq, until_seq, created_at) VALUES ('r2', 't', 1, 5, 6, 1)`,
        true,
      ],
      [`INSERT INTO spaces (id, name, folder, created_at) VALUES ('s1', 'a', '/a', 1)`, true],
      [`INSERT INTO spaces (id, name, folder, created_at) VALUES ('s2', 'b', '/a', 1)`, false],
      [
        `INSERT INTO lessons (id, text, evidence, status, scope, workspace_path, piece_id, created_at, use_count)
          VALUES ('l1', 'x', 'e', 'proposed', 'piece', '/a', 'p', 1, -1)`,
        false,
      ],
      [`DELETE FROM tasks WHERE id = 't'`, false],
    ];
    for (const [sql, accepted] of cases) {
      let liteOk = true;
      try {
        lite.exec(sql);
      } catch {
        liteOk = false;
      }
      const pgOk = await client.query(sql).then(
        () => true,
        () => false,
      );
      expect({ sql, sqlite: liteOk, postgres: pgOk }).toEqual({ sql, sqlite: accepted, postgres: accepted });
    }
  });

  it('answers json_valid and json_type as SQLite does, and malformed JSON breaks a CHECK, not the statement', async () => {
    const values = ['{}', '[]', '[1,2]', '{"a":[1]}', '"x"', '1', '-12', '1.5', '2e3', 'true', 'false', 'null', ' {} '];
    const invalid = ['', '{', '[1,]', "{'a':1}", 'x', '{"a":1}}', 'NaN', '01'];
    for (const value of [...values, ...invalid]) {
      const liteValid = lite.prepare('SELECT json_valid(?) AS v').get(value) as { v: number };
      const [pgValid] = await q<{ v: boolean }>('SELECT json_valid($1) AS v', [value]);
      expect({ value, valid: pgValid?.v }).toEqual({ value, valid: liteValid.v === 1 });
    }
    for (const value of values) {
      const liteType = lite.prepare('SELECT json_type(?) AS t').get(value) as { t: string };
      const [pgType] = await q<{ t: string }>('SELECT json_type($1) AS t', [value]);
      expect({ value, type: pgType?.t }).toEqual({ value, type: liteType.t });
    }
    const bad = `INSERT INTO callers (id, name, role, spaces, token_hash, created_at)
      VALUES ('json', 'n', 'person', '["s1",', '${'b'.repeat(64)}', 1)`;
    expect(() => lite.exec(bad)).toThrow(/CHECK constraint failed/);
    await expect(client.query(bad)).rejects.toMatchObject({ code: '23514' });
  });

  it('keeps tasks.latest_status as SQLite’s triggers do, through inserts, updates and deletes of jobs', async () => {
    const job = (id: string, task: string, at: number, status: string, kind = 'run') =>
      `INSERT INTO jobs (id, task_id, created_at, updated_at, status, wait_reason, piece_id, kind)
         VALUES ('${id}', '${task}', ${at}, ${at}, '${status}', ${status === 'waiting_human' ? "'ask'" : 'NULL'}, 'default', '${kind}')`;
    const steps = [
      `INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
         VALUES ('a', 'a', 'i', 'default', '/repo', 'persistent', 1), ('b', 'b', 'i', 'default', '/repo', 'persistent', 2),
                ('c', 'c', 'i', 'default', '/other', 'ephemeral', 3)`,
      job('a1', 'a', 10, 'failed'),
      job('a2', 'a', 20, 'succeeded'),
      job('b1', 'b', 20, 'waiting_human'),
      // Older than b1: inserted later, it does not speak for the task.
      job('b0', 'b', 10, 'succeeded'),
      // Same millisecond as b1: the later insert (the higher rowid) does.
      job('b2', 'b', 20, 'running'),
      // A Reflection job is never the task's status.
      job('a3', 'a', 30, 'running', 'reflection'),
      job('c1', 'c', 30, 'queued'),
      `UPDATE jobs SET status = 'running' WHERE id = 'c1'`,
      `UPDATE jobs SET status = 'cancelled' WHERE id = 'b0'`,
      // Several rows in one statement.
      `UPDATE jobs SET status = 'cancelled', wait_reason = NULL WHERE task_id IN ('a', 'b') AND kind = 'run'`,
      // created_at moves which job is the latest.
      `UPDATE jobs SET created_at = 99, status = 'failed' WHERE id = 'b0'`,
      `UPDATE jobs SET status = 'succeeded' WHERE id = 'a3'`,
      // An update of neither status nor created_at fires nothing: a latest_status set by hand stays.
      `UPDATE tasks SET latest_status = 'retry' WHERE id = 'c'`,
      `UPDATE jobs SET heartbeat_at = 5 WHERE id = 'c1'`,
      `DELETE FROM jobs WHERE id = 'a2'`,
      `DELETE FROM jobs WHERE task_id = 'a' AND kind = 'run'`,
      `DELETE FROM jobs WHERE id IN ('b0', 'b2')`,
      `DELETE FROM jobs WHERE task_id IN ('a', 'b', 'c')`,
    ];
    const expected: Record<string, string | null>[] = [];
    for (const sql of steps) {
      lite.exec(sql);
      await client.query(sql);
      const liteStatus = lite.prepare('SELECT id, latest_status FROM tasks ORDER BY id').all();
      const pgStatus = await q('SELECT id, latest_status FROM tasks ORDER BY id');
      expect(pgStatus, sql).toEqual(liteStatus);
      expected.push(
        Object.fromEntries(
          (liteStatus as { id: string; latest_status: string | null }[]).map((r) => [r.id, r.latest_status]),
        ),
      );
    }
    // The walk went through the cases above, not through nulls only.
    expect(expected.map((e) => `${e.a},${e.b},${e.c}`)).toEqual(
      expect.arrayContaining([
        'succeeded,waiting_human,null',
        'succeeded,running,null',
        'cancelled,failed,retry',
        'null,null,null',
      ]),
    );
  });

  it('sorts text bytewise, as SQLite does, whatever the database’s locale', async () => {
    const ids = ['b', 'B', 'a', '_', 'A', 'é', 'z'];
    const insert = `INSERT INTO spaces (id, name, folder, created_at) VALUES ${ids.map((id) => `('x${id}', '${id}', '/f/${id}', 1)`).join(', ')}`;
    lite.exec(insert);
    await client.query(insert);
    const order = `SELECT name FROM spaces WHERE id LIKE 'x%' ORDER BY name`;
    expect(await q(order)).toEqual(lite.prepare(order).all());
    // The database's own collation would not: the columns' COLLATE "C" is what makes the orders agree.
    expect(await q(`SELECT name FROM spaces WHERE id LIKE 'x%' ORDER BY name COLLATE "default"`)).not.toEqual(
      lite.prepare(order).all(),
    );
  });
});
