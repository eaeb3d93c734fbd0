#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into native/electron-<version>/, beside (not instead of) the Node build
// that the tests use, so both runtimes keep working on one machine. Skips itself, saying why, where Electron's
// binary is absent (CI, machines without internet). With --ensure (npm start), also fetches Electron's binary first.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const ensure = process.argv.includes('--ensure');
const say = (text) => console.log(`[electron-native] ${text}`);

function electronBinary() {
  try {
    const binary = require(path.join(root, 'node_modules', 'electron'));
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

let binary = electronBinary();
if (!binary && ensure) {
  say("Electron's binary is missing; fetching it with Electron's own installer");
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'electron', 'install.js')], {
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '' },
  });
  binary = electronBinary();
}
if (!binary) {
  say(
    "skipped: Electron's binary is not installed here (ELECTRON_SKIP_BINARY_DOWNLOAD or no network). " +
      'Tests run in Node and do not need it; `npm start` fetches it and builds this addon.',
  );
  process.exit(0);
}

const { version } = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8'));
const target = path.join(root, 'native', `electron-${version}`, 'better_sqlite3.node');
if (fs.existsSync(target)) {
  say(`up to date: ${path.relative(root, target)}`);
  process.exit(0);
}

// Build in a copy of the package, so the Node build in node_modules is never touched.
const source = path.join(root, 'node_modules', 'better-sqlite3');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-electron-sqlite-'));
try {
  fs.cpSync(source, work, { recursive: true, filter: (p) => !p.startsWith(path.join(source, 'build')) });
  const run = (file, args) =>
    execFileSync(process.execPath, [file, ...args], { cwd: work, stdio: 'inherit', env: process.env });
  try {
    say(`fetching a prebuilt better-sqlite3 for Electron ${version}`);
    run(require.resolve('prebuild-install/bin.js', { paths: [source] }), [
      '--runtime',
      'electron',
      '--target',
      version,
    ]);
  } catch {
    say(`no prebuilt binary; compiling against Electron ${version}'s headers`);
    run(require.resolve('node-gyp/bin/node-gyp.js', { paths: [source, root] }), [
      'rebuild',
      '--release',
      '--runtime=electron',
      `--target=${version}`,
      '--dist-url=https://electronjs.org/headers',
    ]);
  }
  const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
  if (!fs.existsSync(built)) throw new Error(`the build produced no ${built}`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(built, target);
  say(`built ${path.relative(root, target)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
