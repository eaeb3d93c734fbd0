// Where the Electron-ABI build of better-sqlite3 lives (built by scripts/build-electron-native.mjs), so that Node
// (tests) and Electron (the app) each load an addon built for their own ABI.
import fs from 'node:fs';
import path from 'node:path';
import { app } from 'electron';

export function electronSqliteBinding(): string {
  const base = app.isPackaged ? process.resourcesPath : app.getAppPath();
  const file = path.join(base, 'native', `electron-${process.versions.electron}`, 'better_sqlite3.node');
  if (!fs.existsSync(file)) {
    throw new Error(
      `the Electron build of better-sqlite3 is missing at ${file}; run \`node scripts/build-electron-native.mjs --ensure\``,
    );
  }
  return file;
}
