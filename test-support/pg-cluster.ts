// Test support: a throwaway PostgreSQL 15 cluster (Debian's binaries) on 127.0.0.1 in a temp dir, and fresh databases
// in it. initdb refuses to run as root, so as root the cluster runs as the `postgres` user through runuser.
// fsync is off (and synchronous_commit, full_page_writes): the data is thrown away at the end, and the tests are
// about what PostgreSQL answers, not about surviving a power cut.
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** Where Debian's postgresql-15 puts initdb, pg_ctl and postgres; MAESTRO_PG_BIN points elsewhere. */
export const PG_BIN_DIR = process.env.MAESTRO_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const RUNUSER = ['/usr/sbin/runuser', '/sbin/runuser'].find((f) => fs.existsSync(f)) ?? '/usr/sbin/runuser';
const SERVICE_USER = 'postgres';
const START_ATTEMPTS = 3;

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres, trust authentication on loopback. */
  url: string;
  port: number;
  /** The temp dir holding the data dir, the socket and the server's log. */
  dir: string;
  /** The server's log so far, for a failing test's message. */
  log(): string;
  /** Stops the server (immediate: the data is thrown away) and removes its dir. Safe to call twice. */
  stop(): Promise<void>;
  /** Stops the server, keeping its data: the database goes away under its clients (their connections are ended). */
  pause(): Promise<void>;
  /** Starts it again on the same port with the same data (after pause). */
  resume(): Promise<void>;
}

const asRoot = () => process.getuid?.() === 0;

/** Why a cluster cannot start on this machine, or undefined when it can. */
export function pgMissing(binDir = PG_BIN_DIR): string | undefined {
  for (const bin of ['initdb', 'pg_ctl', 'postgres']) {
    if (!fs.existsSync(path.join(binDir, bin))) {
      return `PostgreSQL 15 is not installed: ${path.join(binDir, bin)} is missing (apt-get install postgresql-15, or set MAESTRO_PG_BIN)`;
    }
  }
  if (asRoot()) {
    if (!fs.existsSync(RUNUSER)) return `running as root and ${RUNUSER} is missing: initdb refuses root`;
    try {
      execFileSync('id', ['-u', SERVICE_USER], { stdio: 'ignore' });
    } catch {
      return `running as root and there is no user '${SERVICE_USER}' to run the cluster as: initdb refuses root`;
    }
  }
  return undefined;
}

/** Runs a PostgreSQL binary as the cluster's owner: this user, or `postgres` when this is root. */
function pgCommand(bin: string, args: string[], cwd: string) {
  const file = path.join(PG_BIN_DIR, bin);
  return asRoot()
    ? run(RUNUSER, ['-u', SERVICE_USER, '--', file, ...args], { cwd, encoding: 'utf8' })
    : run(file, args, { cwd, encoding: 'utf8' });
}

function pgCommandSync(bin: string, args: string[], cwd: string) {
  const file = path.join(PG_BIN_DIR, bin);
  if (asRoot()) execFileSync(RUNUSER, ['-u', SERVICE_USER, '--', file, ...args], { cwd, stdio: 'ignore' });
  else execFileSync(file, args, { cwd, stdio: 'ignore' });
}

const failure = (e: unknown) => {
  const err = e as { stderr?: string; stdout?: string; message?: string };
  return `${err.message ?? e}\n${err.stdout ?? ''}${err.stderr ?? ''}`;
};

/** initdb in a new temp dir and pg_ctl start on a free loopback port; resolves once it accepts connections. */
export async function startPgCluster(): Promise<PgCluster> {
  const missing = pgMissing();
  if (missing) throw new Error(missing);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-pg-'));
  if (asRoot()) {
    const ids = (flag: string) => Number(execFileSync('id', [flag, SERVICE_USER], { encoding: 'utf8' }).trim());
    fs.chownSync(dir, ids('-u'), ids('-g'));
  }
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '');
  try {
    // The C locale: text sorts by bytes, as SQLite's BINARY collation does.
    await pgCommand(
      'initdb',
      ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      dir,
    );
  } catch (e) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${failure(e)}`);
  }

  let port = 0;
  const optionsOf = (port: number) =>
    [
      `-k ${dir}`,
      `-p ${port}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
  const pgStart = () =>
    pgCommand('pg_ctl', ['-D', data, '-l', logFile, '-w', '-t', '30', '-o', optionsOf(port), 'start'], dir);
  for (let attempt = 1; ; attempt++) {
    // Another process may take the port between freePort and the server's bind: then another port.
    port = await freePort();
    try {
      await pgStart();
      break;
    } catch (e) {
      const output = log();
      if (attempt < START_ATTEMPTS && /could not bind|Address already in use/.test(output)) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`pg_ctl start failed: ${failure(e)}\n${output}`);
    }
  }

  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    try {
      pgCommandSync('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], dir);
    } catch {
      // Already gone.
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  // pg_ctl starts the server detached: a run that ends without stop() must not leave it behind.
  process.once('exit', stopSync);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    log,
    // Fast, not immediate: the test runs with synchronous_commit off, and what a client saw committed must stay.
    pause: () => pgCommand('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'], dir).then(() => undefined),
    resume: () => pgStart().then(() => undefined),
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', stopSync);
      try {
        await pgCommand('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'], dir);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The URL of `baseUrl`'s server with another database. */
function withDatabase(baseUrl: string, database: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A new, uniquely named, empty database on `baseUrl`'s server; returns its URL. Its text sorts in the C locale, unless
 * `icuLocale` (e.g. 'en-US') gives it a person's collation, as a team's server may well have.
 */
export async function createPgDatabase(baseUrl: string, options: { icuLocale?: string } = {}): Promise<string> {
  const { icuLocale } = options;
  if (icuLocale !== undefined && !/^[A-Za-z0-9-]+$/.test(icuLocale))
    throw new Error(`'${icuLocale}' is not an ICU locale`);
  const name = `maestro_test_${process.pid}_${crypto.randomBytes(6).toString('hex')}`;
  const locale = icuLocale ? `LOCALE 'C' LOCALE_PROVIDER icu ICU_LOCALE '${icuLocale}'` : `LOCALE 'C'`;
  await withClient(baseUrl, (c) => c.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' ${locale}`));
  return withDatabase(baseUrl, name);
}

/** Drops the database `url` names, ending its connections first (WITH (FORCE)); a database already gone is fine. */
export async function dropPgDatabase(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`'${name}' is not a database this helper made`);
  if (name === 'postgres') throw new Error('refusing to drop the cluster’s maintenance database');
  await withClient(withDatabase(url, 'postgres'), (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
