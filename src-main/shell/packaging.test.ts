// The packaged app's Electron fuses (package.json "build", read by electron-builder): no running as plain Node, no
// NODE_OPTIONS, no inspector flags, and the app loaded only from its integrity-checked app.asar. Checked against the
// installed electron-builder's own schema, so a misspelt fuse fails here instead of being ignored at packaging.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(__dirname, '..', '..');
const build = (
  JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { build: Record<string, unknown> }
).build;
const fuses = build.electronFuses as Record<string, boolean>;

describe('Electron fuses in the packaging', () => {
  it('turns off RunAsNode, NODE_OPTIONS and the inspect arguments', () => {
    expect(fuses.runAsNode).toBe(false);
    expect(fuses.enableNodeOptionsEnvironmentVariable).toBe(false);
    expect(fuses.enableNodeCliInspectArguments).toBe(false);
  });

  it('turns on ASAR integrity validation and loading the app only from app.asar (which is built)', () => {
    expect(fuses.enableEmbeddedAsarIntegrityValidation).toBe(true);
    expect(fuses.onlyLoadAppFromAsar).toBe(true);
    expect(build.asar).toBe(true);
  });

  it('gives file:// no extra privileges (the window loads app://maestro/)', () => {
    expect(fuses.grantFileProtocolExtraPrivileges).toBe(false);
  });

  it('names only fuses the installed electron-builder knows', () => {
    const require = createRequire(path.join(REPO, 'package.json'));
    const scheme = JSON.parse(fs.readFileSync(require.resolve('app-builder-lib/scheme.json'), 'utf8')) as {
      properties: Record<string, unknown>;
      definitions: { FuseOptionsV1: { properties: Record<string, { type: string }> } };
    };
    expect(scheme.properties).toHaveProperty('electronFuses');
    const known = scheme.definitions.FuseOptionsV1.properties;
    for (const [name, value] of Object.entries(fuses)) {
      expect(known, `electron-builder has no fuse ${name}`).toHaveProperty(name);
      expect(typeof value, name).toBe(known[name]?.type);
    }
  });

  it('no product code relies on ELECTRON_RUN_AS_NODE, which the RunAsNode fuse turns off', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(file);
        else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          if (fs.readFileSync(file, 'utf8').includes('ELECTRON_RUN_AS_NODE')) offenders.push(path.relative(REPO, file));
        }
      }
    };
    for (const root of ['src-main', 'src-shared', 'src-preload']) walk(path.join(REPO, root));
    expect(offenders).toEqual([]);
  });
});
