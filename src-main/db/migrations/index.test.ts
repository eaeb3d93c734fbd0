// The migration runner and the rules of its files: numbered in order, literal, frozen, applied atomically.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test-support/temp-maestro';
import { DatabaseOpenError, openDatabase } from '../connection';
import { MIGRATIONS, migrate, SCHEMA_VERSION, SchemaTooNewError } from './index';

/** sha256 of each shipped migration's SQL. A shipped migration is never edited: a change is a new migration. */
const SHIPPED: Record<number, string> = {
  1: 'ecd581aa4c784bf9770dcc54e9b00415efba90d59b633b1412f4a6bede28124b',
  2: '345b96bd306a982cc5f24c20de9e715e82ac91026563578a8581058272a0b130',
  3: '0852ff3fa894cdbd7dd3d9c52c46eaa0b8cbea7b8dfacbeacd0e04716d8af64a',
  4: '9b9fd95636bb88879eb811bb31751ef82265182f900e7eff20b095f0f59999bb',
  5: '620398f7d37724557b5677da82426a387ad4c9722f15152577030a9db1ac6469',
  6: 'a67f6b31b7d3766bbf784dc169c5927359ed3f49024fcaea07a1d33eaf8800b9',
  7: '6c407d10581fc02fe9d2cbf0d77ed8cf17220132d0a338c2767d3a89ac4bc6d4',
};

const MIGRATION_FILE = /^(\d{4})-([a-z0-9-]+)\.ts$/;

function migrationFiles(): { file: string; version: number; name: string }[] {
  return fs
    .readdirSync(__dirname)
    .flatMap((file) => {
      const m = MIGRATION_FILE.exec(file);
      return m ? [{ file, version: Number(m[1]), name: m[2] as string }] : [];
    })
    .sort((a, b) => a.version - b.version);
}

function emptyDb(): { db: Database.Database; file: string } {
  const file = path.join(tempDir(), 'maestro.db');
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  return { db, file };
}

const userVersion = (db: Database.Database) => db.pragma('user_version', { simple: true }) as number;

describe('the migration files', () => {
  it('are numbered 1…N without a gap, each listed once, in order, under the name its file carries', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(Array.from({ length: MIGRATIONS.length }, (_, i) => i + 1));
    expect(migrationFiles().map(({ version, name }) => ({ version, name }))).toEqual(
      MIGRATIONS.map(({ version, name }) => ({ version, name })),
    );
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.at(-1)?.version);
  });

  it('hold literal SQL: no import, no interpolation, so a change to an enum cannot change a shipped migration', () => {
    for (const { file } of migrationFiles()) {
      const source = fs.readFileSync(path.join(__dirname, file), 'utf8');
      expect(source, file).not.toMatch(/^\s*import\b/m);
      expect(source, file).not.toMatch(/\$\{/);
      expect(source, file).toMatch(/Frozen: never edited after it ships; a change is a new migration\./);
    }
  });

  it('are frozen: the SQL of every shipped migration is the text it shipped with', () => {
    const digests = MIGRATIONS.filter((m) => m.version in SHIPPED).map((m) => [
      m.version,
      crypto.createHash('sha256').update(m.sql.replaceAll('\r\n', '\n')).digest('hex'),
    ]);
    expect(Object.fromEntries(digests)).toEqual(SHIPPED);
  });
});

describe('migrate', () => {
  it('brings an empty file through every migration in order, each table STRICT; a second run applies nothing', () => {
    const { db } = emptyDb();
    expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(userVersion(db)).toBe(SCHEMA_VERSION);
    const tables = (db.pragma('table_list') as { name: string; strict: number; schema: string }[]).filter(
      (t) => t.schema === 'main' && !t.name.startsWith('sqlite_'),
    );
    expect(tables.length).toBeGreaterThanOrEqual(6);
    for (const t of tables) expect(t.strict, `${t.name} is STRICT`).toBe(1);
    expect(migrate(db)).toEqual([]);
    db.close();
  });

  it('stops at the target version, and later applies only the versions above the file’s', () => {
    const { db } = emptyDb();
    expect(migrate(db, 2)).toEqual([1, 2]);
    expect(userVersion(db)).toBe(2);
    expect(db.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE name = 'spaces'`).get()).toEqual({ n: 0 });
    expect(migrate(db, 4)).toEqual([3, 4]);
    expect(migrate(db)).toEqual(MIGRATIONS.slice(4).map((m) => m.version));
    db.close();
  });

  it('a migration that fails leaves the file at its previous version, with nothing of it applied', () => {
    const { db } = emptyDb();
    // A stray table makes migration 1 fail half way: tasks, jobs, … are created, then CREATE TABLE events collides.
    db.exec('CREATE TABLE events (x TEXT)');
    expect(() => migrate(db)).toThrow(/already exists/);
    expect(userVersion(db)).toBe(0);
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map(
      (r) => r.name,
    );
    expect(names).toEqual(['events']);
    db.close();
  });

  it('a failure in a later migration keeps the ones before it', () => {
    const { db } = emptyDb();
    migrate(db, 2);
    db.exec('CREATE TABLE spaces (x TEXT)');
    expect(() => migrate(db)).toThrow(/already exists/);
    expect(userVersion(db)).toBe(2);
    expect(db.prepare(`SELECT count(*) AS n FROM pragma_table_info('tasks') WHERE name = 'space_id'`).get()).toEqual({
      n: 0,
    });
    db.close();
  });

  it('a file with a newer user_version is refused with an error naming the file, and left untouched', () => {
    const { db, file } = emptyDb();
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(SchemaTooNewError);
    db.close();

    expect(() => openDatabase(file)).toThrow(DatabaseOpenError);
    expect(() => openDatabase(file)).toThrow(expect.objectContaining({ file, message: expect.stringContaining(file) }));
    expect(() => openDatabase(file)).toThrow(/newer than this build/);

    const again = new Database(file);
    expect(userVersion(again)).toBe(SCHEMA_VERSION + 1);
    expect(again.prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'`).get()).toEqual({ n: 0 });
    again.close();
  });
});
