// Test helper: a fresh PostgreSQL database per call on the run's cluster (pg-global-setup.ts), dropped after the file;
// or undefined, said loudly, where there is no cluster. On CI (CI or MAESTRO_REQUIRE_PG set) a missing cluster fails
// the test instead: a PostgreSQL test that silently skips there proves nothing.
import crypto from 'node:crypto';
import { afterAll, inject } from 'vitest';
import { SyncPostgresClient } from '../src-main/db/postgres/sync-client';
import { createPgDatabase, dropPgDatabase } from './pg-cluster';

const created: string[] = [];
afterAll(async () => {
  for (const url of created.splice(0)) await dropPgDatabase(url);
});

const required = () => Boolean(process.env.CI || process.env.MAESTRO_REQUIRE_PG);
let warned = false;

/** The run's cluster URL (its maintenance database), or undefined when there is none. */
export function pgBaseUrl(): string | undefined {
  return inject('pgUrl') ?? undefined;
}

/** Whether PostgreSQL tests can run: for `describe.skipIf(!hasPg())`. Warns once per file when they cannot. */
export function hasPg(): boolean {
  if (pgBaseUrl()) return true;
  const reason = inject('pgMissing') ?? 'no cluster was started';
  if (required()) throw new Error(`PostgreSQL tests are required here (CI) but cannot run: ${reason}`);
  if (!warned) {
    warned = true;
    console.warn(`\n!!!!! SKIPPING PostgreSQL tests: ${reason} !!!!!\n`);
  }
  return false;
}

/**
 * A new empty database's URL (dropped after this test file), or undefined with a loud warning when no cluster.
 * `icuLocale`: see createPgDatabase.
 */
export async function pgUrlForTest(options: { icuLocale?: string } = {}): Promise<string | undefined> {
  if (!hasPg()) return undefined;
  const url = await createPgDatabase(pgBaseUrl() as string, options);
  created.push(url);
  return url;
}

/**
 * A copy of the run's migrated template database, made synchronously (for code that opens its store synchronously,
 * testMaestro): its URL and how to drop it. Throws where there is no cluster.
 */
export function pgCopySync(): { url: string; drop: () => void } {
  const template = inject('pgTemplate');
  if (!template) throw new Error('no PostgreSQL template database in this run');
  const admin = new SyncPostgresClient(databaseUrl(template, 'postgres'));
  const name = `maestro_copy_${crypto.randomBytes(6).toString('hex')}`;
  try {
    admin.run([{ sql: `CREATE DATABASE ${name} TEMPLATE ${new URL(template).pathname.slice(1)}` }]);
  } finally {
    admin.close();
  }
  return {
    url: databaseUrl(template, name),
    drop: () => {
      const again = new SyncPostgresClient(databaseUrl(template, 'postgres'));
      try {
        again.run([{ sql: `DROP DATABASE IF EXISTS ${name} WITH (FORCE)` }]);
      } finally {
        again.close();
      }
    },
  };
}

function databaseUrl(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}
