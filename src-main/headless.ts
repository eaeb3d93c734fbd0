// Headless entry: the same core as the desktop app (DB, Worker, engine) with the HTTP bridge and the built renderer,
// no Electron. `node out/main/headless.js --data-dir DIR [--port N] [--workspace DIR] [--print-ui-url]` (and, to serve
// a team, `--bind ADDRESS --tls-cert FILE --tls-key FILE`); `npm run headless` (scripts/headless.mjs) installs, builds
// and starts it with a default data dir, printing the UI's address.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { removeBridgeFile, writeBridgeFile } from './app/bridge-file';
import { concurrencyFrom, leaseFrom } from './app/concurrency';
import { createMaestro, createMaestroShared } from './app/create-maestro';
import { VERSION } from './app/version';
import { startBridgeAtKeptAddress } from './bridge/kept-address';
import { DEFAULT_BIND, type ListenPlan, listenPlanProblem } from './bridge/listener';
import type { Bridge } from './bridge/server';
import { loadTlsIdentity } from './bridge/tls-identity';
import { redactUrl } from './db/postgres/pg-db';

const USAGE =
  'usage: node out/main/headless.js --data-dir DIR [--port N] [--workspace DIR] [--print-ui-url] [--new-token]\n' +
  '         [--bind ADDRESS --tls-cert FILE --tls-key FILE] [--host-name NAME] [--concurrency JOBS]\n' +
  '         [--database postgres://… (or MAESTRO_DATABASE_URL)] [--serves DIR]…';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      workspace: { type: 'string' },
      // The page's address with the token in its fragment, for the person who started the host in a terminal (off by
      // default: a service's stdout may end up in a log, and the token opens everything).
      'print-ui-url': { type: 'boolean' },
      // The host keeps its token across restarts (host.json); this replaces it, e.g. after it was shown to someone.
      'new-token': { type: 'boolean' },
      // Beyond loopback only over TLS; the certificate's names are the ones the bridge then answers to.
      bind: { type: 'string' },
      'tls-cert': { type: 'string' },
      'tls-key': { type: 'string' },
      'host-name': { type: 'string' },
      // Jobs run at once (default 16; MAESTRO_CONCURRENCY too): each profile's own limit holds back its model.
      concurrency: { type: 'string' },
      // Several hosts on one PostgreSQL database; without it the data dir's SQLite file.
      database: { type: 'string' },
      serves: { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error(`--data-dir is required\n${USAGE}`);
  const port = parsePort(values.port);
  const workspace = values.workspace === undefined ? null : path.resolve(values.workspace);
  if (workspace !== null && !isFolder(workspace)) throw new Error(`--workspace ${workspace} is not an existing folder`);
  // Checked before anything starts: a bad certificate or a bind without TLS leaves no DB opened, no port taken.
  const plan = listenPlanFrom(values);
  const hostName = values['host-name'];
  if (hostName !== undefined && !/^[\w.-]{1,64}$/.test(hostName)) {
    throw new Error(`--host-name must be 1 to 64 letters, digits, dots, dashes or underscores, got "${hostName}"`);
  }

  const concurrency =
    values.concurrency !== undefined
      ? concurrencyFrom(values.concurrency, '--concurrency')
      : concurrencyFrom(process.env.MAESTRO_CONCURRENCY, 'MAESTRO_CONCURRENCY');

  const database = values.database ?? process.env.MAESTRO_DATABASE_URL;
  if (database !== undefined && !/^postgres(ql)?:\/\//.test(database))
    throw new Error(`--database must be a postgres:// URL (MAESTRO_DATABASE_URL too); got "${redactUrl(database)}"`);
  const serves = values.serves?.map((folder) => {
    const resolved = path.resolve(folder);
    if (!isFolder(resolved)) throw new Error(`--serves ${resolved} is not an existing folder`);
    return resolved;
  });
  if (serves && !database)
    throw new Error('--serves names the folders a host serves among others: it needs --database');

  const appRoot = findAppRoot(__dirname);
  const options = {
    dataDir,
    piecesDir: path.join(appRoot, 'pieces'),
    version: VERSION,
    hostName,
    defaultWorkspace: workspace,
    worker: { concurrency, ...leaseFrom(process.env.MAESTRO_LEASE_SECONDS, 'MAESTRO_LEASE_SECONDS') },
    ...(serves ? { serves } : {}),
  };
  const maestro = database ? await createMaestroShared(options, database) : createMaestro(options);
  let bridge: Bridge;
  let token: string;
  try {
    const started = await startBridgeAtKeptAddress({
      maestro,
      port,
      newToken: values['new-token'],
      ...plan,
      staticDir: path.join(appRoot, 'out', 'renderer'),
    });
    ({ bridge, token } = started);
    if (started.note) console.log(`MAESTRO: ${started.note}`);
  } catch (error) {
    await maestro.close();
    throw error;
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`MAESTRO received ${signal}, stopping`);
    try {
      await bridge.close();
      await maestro.close();
      removeBridgeFile(maestro.ctx.dataDir);
      process.exit(0);
    } catch (error) {
      console.error('MAESTRO failed to stop cleanly:', error);
      process.exit(1);
    }
  };
  // Before the address is announced: whoever reads it may signal at once.
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  maestro.start();
  writeBridgeFile(maestro.ctx.dataDir, { url: bridge.url, token, pid: process.pid });
  console.log(`MAESTRO bridge listening on ${bridge.url}`);
  if (values['print-ui-url']) console.log(`MAESTRO UI: ${bridge.url}/#token=${token}`);
}

function listenPlanFrom(values: { bind?: string; 'tls-cert'?: string; 'tls-key'?: string }): ListenPlan {
  const { bind = DEFAULT_BIND, 'tls-cert': certFile, 'tls-key': keyFile } = values;
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new Error(`--tls-cert and --tls-key go together: give both or neither\n${USAGE}`);
  }
  const plan: ListenPlan = {
    bind,
    ...(certFile !== undefined && keyFile !== undefined
      ? { tls: loadTlsIdentity(path.resolve(certFile), path.resolve(keyFile)) }
      : {}),
  };
  const problem = listenPlanProblem(plan);
  if (problem) throw new Error(problem);
  return plan;
}

/** Without --port: the port the host listened on last time (host.json), else a free one. */
function parsePort(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const port = /^\d{1,5}$/.test(given) ? Number(given) : Number.NaN;
  if (!(port >= 0 && port <= 65535))
    throw new Error(`--port must be a number from 0 to 65535, got "${given}"\n${USAGE}`);
  return port;
}

function isFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The folder holding package.json and pieces/: two up from out/main/headless.js, one up from src-main/. */
function findAppRoot(from: string): string {
  for (let dir = from; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'pieces'))) return dir;
  }
  throw new Error(`cannot find the app root (package.json and pieces/) above ${from}`);
}

main().catch((error: unknown) => {
  console.error(`MAESTRO could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
