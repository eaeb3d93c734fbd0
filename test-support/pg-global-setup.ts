// Vitest globalSetup: one throwaway PostgreSQL cluster for the whole run, started only where the binaries are, its URL
// handed to the test files with provide/inject (which reaches pool: 'forks' workers) and stopped when the run ends.
// MAESTRO_TEST_DATABASE_URL names a server to use instead (nothing is started then).
import type { TestProject } from 'vitest/node';
import { migratePostgres } from '../src-main/db/migrations/postgres';
import { createPgDatabase, type PgCluster, pgMissing, startPgCluster } from './pg-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's maintenance-database URL, or null when there is none. */
    pgUrl: string | null;
    /** Why there is no cluster, when there is none. */
    pgMissing: string | null;
    /** A database migrated to the latest schema that tests copy (CREATE DATABASE … TEMPLATE), or null. */
    pgTemplate: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.MAESTRO_TEST_DATABASE_URL;
  if (given) {
    project.provide('pgUrl', given);
    project.provide('pgMissing', null);
    project.provide('pgTemplate', await migratedTemplate(given));
    return async () => {};
  }
  const missing = pgMissing();
  if (missing) console.warn(`\n!!!!! No PostgreSQL cluster for this run, its tests skip: ${missing} !!!!!\n`);
  let cluster: PgCluster | undefined;
  if (!missing) cluster = await startPgCluster();
  project.provide('pgUrl', cluster?.url ?? null);
  project.provide('pgMissing', missing ?? null);
  project.provide('pgTemplate', cluster ? await migratedTemplate(cluster.url) : null);
  return async () => {
    await cluster?.stop();
  };
}

/** A fresh database migrated once for the run: copying it is faster than migrating each test's own. */
async function migratedTemplate(baseUrl: string): Promise<string> {
  const url = await createPgDatabase(baseUrl);
  await migratePostgres(url);
  return url;
}
