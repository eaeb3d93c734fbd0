// Headless entry: the same core as the desktop app (DB, Worker, engine) with the HTTP bridge and the built renderer,
// no Electron. `node out/main/headless.js --data-dir DIR [--port N] [--workspace DIR]`.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { removeBridgeFile, writeBridgeFile } from './app/bridge-file';
import { createMaestro } from './app/create-maestro';
import { VERSION } from './app/version';
import { startBridge } from './bridge/server';

const USAGE = 'usage: node out/main/headless.js --data-dir DIR [--port N] [--workspace DIR]';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      workspace: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const dataDir = values['data-dir'];
  if (!dataDir) throw new Error(`--data-dir is required\n${USAGE}`);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0..65535, got ${values.port}`);

  const appRoot = findAppRoot(__dirname);
  const maestro = createMaestro({
    dataDir,
    piecesDir: path.join(appRoot, 'pieces'),
    version: VERSION,
    defaultWorkspace: values.workspace ? path.resolve(values.workspace) : null,
  });
  const token = randomBytes(32).toString('base64url');
  const bridge = await startBridge({ maestro, token, port, staticDir: path.join(appRoot, 'out', 'renderer') });
  maestro.start();
  writeBridgeFile(maestro.ctx.dataDir, { url: bridge.url, token, pid: process.pid });
  console.log(`MAESTRO bridge listening on ${bridge.url}`);

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
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
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
