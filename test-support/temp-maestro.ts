// Test support: temp dirs that clean themselves up, and a Maestro on a real SQLite file in one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createMaestro, type Maestro, type MaestroOptions } from '../src-main/app/create-maestro';
import { PostgresDb } from '../src-main/db/postgres/pg-db';
import type { SqlDatabase } from '../src-main/db/sql';
import { Store } from '../src-main/db/store';
import type { SandboxChoice } from '../src-main/tools/os-sandbox';
import { pgCopySync } from './pg-test-db';

export const PIECES_DIR = path.resolve(__dirname, '..', 'pieces');

const cleanups: (() => Promise<void> | void)[] = [];
/** With MAESTRO_TEST_DIALECT=postgres: each data dir's database. */
const pgDatabases = new Map<string, string>();
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

export function tempDir(prefix = 'maestro-test-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** What tests that are not about the OS sandbox run with: none (commands ask; stdio MCP servers run as they are). */
export const NO_SANDBOX: SandboxChoice = { ok: false, reason: 'this test gives no OS sandbox' };

/**
 * A Maestro on a temp data dir. With MAESTRO_TEST_DIALECT=postgres, its database is a fresh PostgreSQL one (a copy of
 * the run's migrated template): the same tests then run on what several hosts share.
 */
export function testMaestro(options: Partial<MaestroOptions> = {}): Maestro {
  const dataDir = options.dataDir ?? tempDir();
  let database = options.database;
  if (!database && process.env.MAESTRO_TEST_DIALECT === 'postgres') {
    // A host started again on the same data dir finds the same database.
    let url = pgDatabases.get(dataDir);
    if (!url) {
      const copy = pgCopySync();
      url = copy.url;
      pgDatabases.set(dataDir, url);
      cleanups.push(() => {
        pgDatabases.delete(dataDir);
        copy.drop();
      });
    }
    database = { url, store: new Store(new PostgresDb(url) as unknown as SqlDatabase) };
  }
  const maestro = createMaestro({
    ...(database ? { database } : {}),
    dataDir,
    piecesDir: PIECES_DIR,
    version: 'test',
    env: {},
    sandbox: NO_SANDBOX,
    ...options,
    // A Reflection after a failed job would take scripted replies meant for the test's own jobs (P2.08 tests turn it on).
    worker: { reflectionMode: () => 'off', ...options.worker },
  });
  cleanups.push(() => maestro.close());
  return maestro;
}

/**
 * What a person does with the settings-change card, for every settings file of the workspace (`.maestro/*`): accepts
 * it as it is now, so the test's own files apply. The folder is resolved as tasks resolve theirs.
 */
export function acceptWorkspaceSettings(maestro: Maestro, workspace: string): void {
  const folder = fs.realpathSync(workspace);
  for (const change of maestro.ctx.accepted.changes(folder)) {
    maestro.ctx.accepted.record(folder, change.file, change.current);
  }
}
