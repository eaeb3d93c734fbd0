// The ordered PostgreSQL schema migrations (issue 25 point 3), applied on the version kept in maestro_schema, each in
// its own transaction under one advisory lock, so several hosts starting at once on one database migrate it once.
import pg from 'pg';
import type { Migration } from '../index';
import { SchemaTooNewError } from '../index';
import * as schema from './0001-schema';
import * as hosts from './0002-hosts';
import * as transcripts from './0003-transcripts';
import * as lessonReplaces from './0004-lesson-replaces';
import * as jobGuardCalls from './0005-job-guard-calls';

/** Migration N at index N - 1. PostgreSQL's numbers are its own: 1 is SQLite's 1 to 21, then N is SQLite's N + 20. */
export const PG_MIGRATIONS: readonly Migration[] = [schema, hosts, transcripts, lessonReplaces, jobGuardCalls];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** The key of the transaction-scoped advisory lock every migrator takes: 'maestro' in ASCII. */
export const MIGRATION_LOCK_KEY = '30797952434004591';

/** The database holds a schema newer than this build's (a host of a newer MAESTRO migrated it). */
export class PostgresSchemaTooNewError extends SchemaTooNewError {
  constructor(database: string, found: number) {
    super(database, found);
    this.message = `PostgreSQL database ${database} has schema version ${found}, newer than this build knows (${PG_SCHEMA_VERSION}); upgrade MAESTRO`;
  }
}

/** host:port/database of a client: names the database in an error without its password. */
const dbName = (client: pg.Client) => `${client.host}:${client.port}/${client.database}`;

/**
 * Applies every PostgreSQL migration above the database's version up to `target`, each atomically; returns the
 * versions this call applied (none when another host got there first). A URL is connected to and closed here;
 * a given client is used as it is and left open (it must not be inside a transaction).
 */
export async function migratePostgres(db: string | pg.Client, target = PG_SCHEMA_VERSION): Promise<number[]> {
  const client = typeof db === 'string' ? new pg.Client({ connectionString: db }) : db;
  if (typeof db === 'string') await client.connect();
  try {
    const applied: number[] = [];
    for (;;) {
      const version = await step(client, target);
      if (version === undefined) return applied;
      applied.push(version);
    }
  } finally {
    if (typeof db === 'string') await client.end();
  }
}

/** One transaction: waits for the lock, reads the version under it and applies the next migration, if any is due. */
async function step(client: pg.Client, target: number): Promise<number | undefined> {
  await client.query('BEGIN');
  try {
    await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_KEY})`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS maestro_schema (
         one BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (one),
         version INTEGER NOT NULL CHECK (version >= 0)
       )`,
    );
    const { rows } = await client.query<{ version: number }>('SELECT version FROM maestro_schema');
    const current = rows[0]?.version ?? 0;
    if (current > PG_SCHEMA_VERSION) throw new PostgresSchemaTooNewError(dbName(client), current);
    const next = PG_MIGRATIONS[current];
    if (current >= target || !next) {
      await client.query('COMMIT');
      return undefined;
    }
    await client.query(next.sql);
    await client.query(
      `INSERT INTO maestro_schema (one, version) VALUES (TRUE, $1)
         ON CONFLICT (one) DO UPDATE SET version = excluded.version`,
      [next.version],
    );
    await client.query('COMMIT');
    return next.version;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  }
}
