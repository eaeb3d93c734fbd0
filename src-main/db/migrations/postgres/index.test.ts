// The PostgreSQL migration runner on a real server (the run's throwaway cluster): its files literal and frozen, an
// empty database brought to the latest version once, three hosts starting together migrating it once, a newer
// database refused untouched, and the events table waking LISTENers.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { hasPg, pgUrlForTest } from '../../../../test-support/pg-test-db';
import { SchemaTooNewError } from '../index';
import {
  MIGRATION_LOCK_KEY,
  migratePostgres,
  PG_MIGRATIONS,
  PG_SCHEMA_VERSION,
  PostgresSchemaTooNewError,
} from './index';

/** sha256 of each shipped PostgreSQL migration's SQL. A shipped migration is never edited: a change is a new one. */
const SHIPPED: Record<number, string> = {
  1: 'bfd77681e0c330021c268d24adffc59bc1431671a04733c8ffc84c918aa97c6e',
};

const MIGRATION_FILE = /^(\d{4})-([a-z0-9-]+)\.ts$/;

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end();
});

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
}

async function freshDb(): Promise<{ url: string; client: pg.Client }> {
  const url = (await pgUrlForTest()) as string;
  return { url, client: await connect(url) };
}

const tables = async (client: pg.Client) =>
  (
    await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    )
  ).rows.map((r) => r.name);

const storedVersion = async (client: pg.Client) =>
  (await client.query<{ version: number }>('SELECT version FROM maestro_schema')).rows.map((r) => r.version);

describe('the PostgreSQL migration files', () => {
  it('are numbered 1…N without a gap, each listed once, in order, under the name its file carries', () => {
    const files = fs.readdirSync(__dirname).flatMap((file) => {
      const m = MIGRATION_FILE.exec(file);
      return m ? [{ version: Number(m[1]), name: m[2] as string }] : [];
    });
    expect(PG_MIGRATIONS.map((m) => ({ version: m.version, name: m.name }))).toEqual(
      files.sort((a, b) => a.version - b.version),
    );
    expect(PG_MIGRATIONS.map((m) => m.version)).toEqual(PG_MIGRATIONS.map((_, i) => i + 1));
    expect(PG_SCHEMA_VERSION).toBe(PG_MIGRATIONS.length);
  });

  it('hold literal SQL: no import, no interpolation', () => {
    for (const file of fs.readdirSync(__dirname).filter((f) => MIGRATION_FILE.test(f))) {
      const source = fs.readFileSync(path.join(__dirname, file), 'utf8');
      expect(source, file).not.toMatch(/^\s*import\b/m);
      expect(source, file).not.toMatch(/\$\{/);
      expect(source, file).toMatch(/Frozen: never edited after it ships; a change is a new migration\./);
    }
  });

  it('are frozen: the SQL of every shipped migration is the text it shipped with', () => {
    const digests = PG_MIGRATIONS.filter((m) => m.version in SHIPPED).map((m) => [
      m.version,
      crypto.createHash('sha256').update(m.sql.replaceAll('\r\n', '\n')).digest('hex'),
    ]);
    expect(Object.fromEntries(digests)).toEqual(SHIPPED);
  });
});

describe.skipIf(!hasPg())('migratePostgres (real PostgreSQL 15)', () => {
  it('brings an empty database to the latest version; a second run applies nothing and changes nothing', async () => {
    const { url, client } = await freshDb();
    expect(await tables(client)).toEqual([]);
    expect(await migratePostgres(url)).toEqual(PG_MIGRATIONS.map((m) => m.version));
    expect(await storedVersion(client)).toEqual([PG_SCHEMA_VERSION]);
    const after = await tables(client);
    expect(after).toEqual(expect.arrayContaining(['tasks', 'jobs', 'events', 'log_entries', 'maestro_schema']));

    // On a client the caller owns: used, not closed.
    expect(await migratePostgres(client)).toEqual([]);
    expect(await tables(client)).toEqual(after);
    expect(await storedVersion(client)).toEqual([PG_SCHEMA_VERSION]);
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('three hosts migrating one database at once: it is migrated once, and every host sees the latest version', async () => {
    const { url, client } = await freshDb();
    // Hold the migrators' lock so all three are waiting on it before any starts, then let them race.
    const holder = await connect(url);
    await holder.query('BEGIN');
    await holder.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    const hosts = await Promise.all([1, 2, 3].map(() => connect(url)));
    const runs = hosts.map((h) => migratePostgres(h));
    await waitFor(async () => {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks
           WHERE locktype = 'advisory' AND NOT granted
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      return rows[0]?.n === 3;
    });
    await holder.query('COMMIT');
    const applied = await Promise.all(runs);
    // Each migration applied by exactly one of them (one may apply 1 and another 2: each takes the lock anew).
    expect(applied.flat().sort((a, b) => a - b)).toEqual(PG_MIGRATIONS.map((m) => m.version));
    expect(await storedVersion(client)).toEqual([PG_SCHEMA_VERSION]);
  });

  it('a database newer than this build is refused with an error naming it (not its password), and left untouched', async () => {
    const { url, client } = await freshDb();
    await client.query(
      'CREATE TABLE maestro_schema (one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one), version INTEGER NOT NULL)',
    );
    await client.query('INSERT INTO maestro_schema (version) VALUES ($1)', [PG_SCHEMA_VERSION + 1]);
    const withPassword = new URL(url);
    withPassword.password = 'hunter2-not-needed';

    const error = await migratePostgres(withPassword.toString()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresSchemaTooNewError);
    expect(error).toBeInstanceOf(SchemaTooNewError);
    expect(error).toMatchObject({ code: 'schema_too_new' });
    const message = (error as Error).message;
    expect(message).toContain(`${withPassword.hostname}:${withPassword.port}${withPassword.pathname}`);
    expect(message).toMatch(/newer than this build knows/);
    expect(message).not.toContain('hunter2');
    expect(await tables(client)).toEqual(['maestro_schema']);
    expect(await storedVersion(client)).toEqual([PG_SCHEMA_VERSION + 1]);
  });

  it('a migration that fails leaves the database at its previous version with nothing of it applied', async () => {
    const { url, client } = await freshDb();
    // A stray table makes migration 1 fail half way: tasks, jobs, … are created, then CREATE TABLE events collides.
    await client.query('CREATE TABLE events (x TEXT)');
    await expect(migratePostgres(url)).rejects.toThrow(/already exists/);
    // The version table went with it: it is made in the same transaction as the migration.
    expect(await tables(client)).toEqual(['events']);
  });

  it('events wake LISTENers on maestro_events once per committed insert; a rolled-back insert wakes nobody', async () => {
    const { url, client } = await freshDb();
    await migratePostgres(client);
    const listener = await connect(url);
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(`${n.channel}:${n.payload}`));
    await listener.query('LISTEN maestro_events');
    const insert = `INSERT INTO events (ts, type, task_id, job_id, payload) VALUES (1, 'task.created', 't', NULL, '{}'),
      (2, 'task.changed', 't', NULL, '{}')`;

    await client.query('BEGIN');
    await client.query(insert);
    await client.query('ROLLBACK');
    await client.query('SELECT pg_sleep(0.2)');
    expect(heard).toEqual([]);

    await client.query(insert);
    await waitFor(async () => heard.length > 0);
    await client.query('SELECT pg_sleep(0.2)');
    expect(heard).toEqual(['maestro_events:']);
    const { rows } = await client.query('SELECT seq, rowid FROM events ORDER BY seq');
    expect(rows.map((r) => r.rowid)).toEqual(rows.map((r) => r.seq));
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}
