#!/usr/bin/env node
// Builds better-sqlite3 for Electron's ABI into native/electron-<version>/, beside (not instead of) the Node build
// that the tests use, so both runtimes keep working on one machine. Electron's package no longer fetches its binary
// when it is installed, so this script does (Electron's own installer, which needs Node 22.12+), unless
// ELECTRON_SKIP_BINARY_DOWNLOAD is set (CI, machines without internet): then it skips itself, saying why. With
// --ensure (npm start, npm run dist) the binary is fetched whatever that variable says, and a failure stops.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const ensure = process.argv.includes('--ensure');
const skipDownload = !['', '0', 'false'].includes(process.env.ELECTRON_SKIP_BINARY_DOWNLOAD ?? '');
const say = (text) => console.log(`[electron-native] ${text}`);

/** The installed binary, found the way Electron's index.js finds it; not by require('electron'), which now downloads
 * the binary when it is missing. */
function electronBinary() {
  try {
    const relative = fs.readFileSync(path.join(electronDir, 'path.txt'), 'utf8');
    const binary = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(electronDir, 'dist'), relative);
    return fs.existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

let binary = electronBinary();
if (!binary && (ensure || !skipDownload)) {
  say("Electron's binary is missing; fetching it with Electron's own installer");
  try {
    execFileSync(process.execPath, [path.join(electronDir, 'install.js')], { stdio: 'inherit' });
  } catch (error) {
    if (ensure) {
      // `npm start` on a machine that cannot download Electron: say what to do instead of a stack trace.
      say(`could not fetch Electron's binary (${error.message.split('\n')[0]}).`);
      say('The desktop app needs it. Without it, the same app runs in your browser: `npm run headless`.');
      process.exit(1);
    }
    say(`could not fetch Electron's binary (${error.message}); \`npm start\` tries again`);
  }
  binary = electronBinary();
}
if (!binary) {
  say(
    "skipped: Electron's binary is not installed here (ELECTRON_SKIP_BINARY_DOWNLOAD or no network). " +
      'Tests run in Node and do not need it; `npm start` fetches it and builds this addon.',
  );
  process.exit(0);
}

const { version } = JSON.parse(fs.readFileSync(path.join(electronDir, 'package.json'), 'utf8'));
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
