// The throwaway PostgreSQL cluster and its databases: a cluster that starts on loopback as a non-root user and leaves
// no process and no files behind, databases that are fresh and separate, and a drop that ends open connections.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDatabase, dropPgDatabase, pgMissing, startPgCluster } from './pg-cluster';
import { hasPg, pgBaseUrl, pgUrlForTest } from './pg-test-db';

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end().catch(() => {});
});

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/** Command lines of the processes that mention `text` (pgrep -af, without failing on none). */
const processesWith = (text: string) =>
  execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(text));

describe('pgMissing', () => {
  it('names the missing binary and how to get it', () => {
    expect(pgMissing('/nonexistent/pg/bin')).toMatch(/\/nonexistent\/pg\/bin\/initdb is missing.*postgresql-15/);
  });
});

describe.skipIf(!hasPg())('the throwaway cluster (real PostgreSQL 15)', () => {
  it('starts on 127.0.0.1 as a non-root user, and stop() leaves no server process and no files', async () => {
    const cluster = await startPgCluster();
    let stopped = false;
    try {
      expect(cluster.url).toBe(`postgres://postgres@127.0.0.1:${cluster.port}/postgres`);
      const client = await connect(cluster.url);
      const { rows } = await client.query<{ addr: string; fsync: string; user: string }>(
        `SELECT inet_server_addr()::text AS addr, current_setting('fsync') AS fsync, current_user AS user`,
      );
      expect(rows).toEqual([{ addr: '127.0.0.1/32', fsync: 'off', user: 'postgres' }]);
      expect(processesWith(cluster.dir).length).toBeGreaterThan(0);
      const owner = fs.statSync(`${cluster.dir}/data`).uid;
      expect(owner).not.toBe(0);
      await client.end();
      clients.splice(0);
      await cluster.stop();
      stopped = true;
      expect(processesWith(cluster.dir)).toEqual([]);
      expect(fs.existsSync(cluster.dir)).toBe(false);
      await cluster.stop();
    } finally {
      if (!stopped) await cluster.stop();
    }
  });

  it('hands each caller a fresh empty database of its own', async () => {
    const [a, b] = [(await pgUrlForTest()) as string, (await pgUrlForTest()) as string];
    expect(a).not.toBe(b);
    const [ca, cb] = [await connect(a), await connect(b)];
    await ca.query('CREATE TABLE only_in_a (x INTEGER)');
    const tables = async (c: pg.Client) =>
      (await c.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)).rows;
    expect(await tables(ca)).toEqual([{ table_name: 'only_in_a' }]);
    expect(await tables(cb)).toEqual([]);
  });

  it('drops a database that still has connections, and refuses the maintenance database', async () => {
    const base = pgBaseUrl() as string;
    const url = await createPgDatabase(base);
    const open = await connect(url);
    await dropPgDatabase(url);
    await expect(open.query('SELECT 1')).rejects.toThrow();
    const name = new URL(url).pathname.slice(1);
    const admin = await connect(base);
    expect((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rows).toEqual([]);
    await dropPgDatabase(url);
    await expect(dropPgDatabase(base)).rejects.toThrow(/maintenance database/);
    expect((await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'postgres'`)).rows).toHaveLength(1);
  });
});
