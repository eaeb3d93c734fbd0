// Test support: temp dirs that clean themselves up, and a Maestro on a real SQLite file in one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { createMaestro, type Maestro, type MaestroOptions } from '../src-main/app/create-maestro';
import type { SandboxChoice } from '../src-main/tools/os-sandbox';

export const PIECES_DIR = path.resolve(__dirname, '..', 'pieces');

const cleanups: (() => Promise<void> | void)[] = [];
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

export function testMaestro(options: Partial<MaestroOptions> = {}): Maestro {
  const maestro = createMaestro({
    dataDir: options.dataDir ?? tempDir(),
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
