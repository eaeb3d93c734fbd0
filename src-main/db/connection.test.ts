import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { DatabaseOpenError, DEFAULT_BUSY_TIMEOUT_MS, openDatabase } from './connection';
import { SCHEMA_VERSION } from './migrations';

describe('openDatabase', () => {
  it('sets WAL, busy_timeout, synchronous NORMAL and foreign keys, and migrates to the current version (A#3)', () => {
    const file = path.join(tempDir(), 'nested', 'dir', 'maestro.db');
    const db = openDatabase(file);
    try {
      expect(fs.existsSync(file)).toBe(true);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('busy_timeout', { simple: true })).toBe(DEFAULT_BUSY_TIMEOUT_MS);
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      db.close();
    }
    const custom = openDatabase(file, { busyTimeoutMs: 250 });
    expect(custom.pragma('busy_timeout', { simple: true })).toBe(250);
    custom.close();
  });

  it('a new database and its WAL are readable by the owner only (0600), its folder 0700', () => {
    const dir = path.join(tempDir(), 'data');
    const file = path.join(dir, 'maestro.db');
    const db = openDatabase(file);
    try {
      db.prepare('CREATE TABLE t (x INTEGER) STRICT').run();
      db.prepare('INSERT INTO t VALUES (1)').run();
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    } finally {
      db.close();
    }
  });

  it('keeps its data across a reopen', () => {
    const file = path.join(tempDir(), 'maestro.db');
    const db = openDatabase(file);
    db.exec(`INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
             VALUES ('t', 't', 'i', 'p', '/w', 'persistent', 1)`);
    db.close();
    const reopened = openDatabase(file);
    expect(reopened.prepare('SELECT id FROM tasks').all()).toEqual([{ id: 't' }]);
    reopened.close();
  });

  it('a corrupt file (random bytes) → DatabaseOpenError naming its path; the file is not rewritten', () => {
    const file = path.join(tempDir(), 'maestro.db');
    const bytes = crypto.randomBytes(8192);
    fs.writeFileSync(file, bytes);
    let error: unknown;
    try {
      openDatabase(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DatabaseOpenError);
    expect((error as DatabaseOpenError).name).toBe('DatabaseOpenError');
    expect((error as DatabaseOpenError).file).toBe(file);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/not a database/);
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a PostgreSQL URL → DatabaseOpenError without its password; nothing is created where the URL points', () => {
    const cwd = process.cwd();
    process.chdir(tempDir());
    try {
      const url = 'postgres://maestro:s3cret@127.0.0.1:5432/maestro';
      let error: unknown;
      try {
        openDatabase(url);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DatabaseOpenError);
      expect((error as Error).message).toContain('a URL is not a SQLite file');
      expect((error as Error).message).toContain('127.0.0.1:5432/maestro');
      expect((error as Error).message).not.toContain('s3cret');
      expect(fs.readdirSync('.')).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it('a path whose parent is a file → DatabaseOpenError naming the path', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'blocker'), 'x');
    const file = path.join(dir, 'blocker', 'maestro.db');
    expect(() => openDatabase(file)).toThrow(DatabaseOpenError);
    expect(() => openDatabase(file)).toThrow(file);
  });
});
