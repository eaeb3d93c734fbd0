// Vitest globalSetup: one throwaway PostgreSQL cluster for the whole run, started only where the binaries are, its URL
// handed to the test files with provide/inject (which reaches pool: 'forks' workers) and stopped when the run ends.
// MAESTRO_TEST_DATABASE_URL names a server to use instead (nothing is started then).
import type { TestProject } from 'vitest/node';
import { type PgCluster, pgMissing, startPgCluster } from './pg-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cluster's maintenance-database URL, or null when there is none. */
    pgUrl: string | null;
    /** Why there is no cluster, when there is none. */
    pgMissing: string | null;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const given = process.env.MAESTRO_TEST_DATABASE_URL;
  if (given) {
    project.provide('pgUrl', given);
    project.provide('pgMissing', null);
    return async () => {};
  }
  const missing = pgMissing();
  if (missing) console.warn(`\n!!!!! No PostgreSQL cluster for this run, its tests skip: ${missing} !!!!!\n`);
  let cluster: PgCluster | undefined;
  if (!missing) cluster = await startPgCluster();
  project.provide('pgUrl', cluster?.url ?? null);
  project.provide('pgMissing', missing ?? null);
  return async () => {
    await cluster?.stop();
  };
}
