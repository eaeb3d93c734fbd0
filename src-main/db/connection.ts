// Opens the SQLite file with the house settings (WAL, busy_timeout, foreign keys) and migrates it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CodedError } from '../../src-shared/errors';
import { migrate } from './migrations';

export interface OpenOptions {
  /** Path of a better_sqlite3.node built for the running ABI (Electron builds its own). */
  nativeBinding?: string;
  busyTimeoutMs?: number;
}

export class DatabaseOpenError extends CodedError {
  readonly code = 'database_unopenable';
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`cannot open the MAESTRO database at ${file}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export function openDatabase(file: string, options: OpenOptions = {}): Database.Database {
  let db: Database.Database | undefined;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Made owner-only before SQLite opens it; its -wal and -shm files take the same permissions.
    fs.closeSync(fs.openSync(file, 'a', 0o600));
    db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // Touches the header: a file that is not a database fails here, with its path in the message.
    db.pragma('schema_version');
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: a committed transaction survives a killed process; fsync happens at checkpoints.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (error) {
    db?.close();
    throw new DatabaseOpenError(file, error);
  }
}
