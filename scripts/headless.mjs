#!/usr/bin/env node
// `npm run headless [-- --workspace DIR --port N …]`: the headless host in one command, on a machine with or without
// Electron's binary. Installs the dependencies when they are missing (without Electron's binary), builds, and starts
// out/main/headless.js with a data dir of its own (MAESTRO_DATA_DIR, else ~/.maestro-headless), printing the UI's
// address with its token for the person at this terminal.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const say = (text) => console.log(`[headless] ${text}`);
const run = (command, args, env = process.env) => {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (!fs.existsSync(path.join(root, 'node_modules', '.bin', 'electron-vite'))) {
  say('installing the dependencies (without Electron’s binary, which the headless host does not need)');
  run('npm', ['install', '--no-audit', '--no-fund'], { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' });
}
say('building');
run(path.join(root, 'node_modules', '.bin', 'electron-vite'), ['build']);

const args = process.argv.slice(2);
if (!args.some((a) => a === '--data-dir' || a.startsWith('--data-dir='))) {
  args.push('--data-dir', process.env.MAESTRO_DATA_DIR || path.join(os.homedir(), '.maestro-headless'));
}
const host = spawn(process.execPath, [path.join(root, 'out', 'main', 'headless.js'), '--print-ui-url', ...args], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => host.kill(signal));
host.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
