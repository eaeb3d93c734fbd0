// Opens the SQLite file with the house settings (WAL, a short busy_timeout, foreign keys) and migrates it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { CodedError } from '../../src-shared/errors';
import { migrate } from './migrations';
import { redactUrl } from './postgres/pg-db';

export interface OpenOptions {
  /** Path of a better_sqlite3.node built for the running ABI (Electron builds its own). */
  nativeBinding?: string;
  /** How long one statement waits for another process's lock (default DEFAULT_BUSY_TIMEOUT_MS). */
  busyTimeoutMs?: number;
}

/**
 * Short on purpose: better-sqlite3 is synchronous, so the wait blocks the whole event loop (bridge, heartbeats, every
 * job). A write that is still locked out after it fails with SQLITE_BUSY and is tried again later from the event
 * loop (storage-fault.ts), so a lock held for a minute costs a few short stalls, not a frozen host.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 200;
const WAL_SIZE_LIMIT = 16 * 1024 * 1024;

export class DatabaseOpenError extends CodedError {
  readonly code = 'database_unopenable';
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`cannot open the MAESTRO database at ${file}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** A URL (`postgres://…`) where a file's path belongs: SQLite would make it a folder named after the URL. */
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

export function openDatabase(file: string, options: OpenOptions = {}): Database.Database {
  if (URL_LIKE.test(file)) {
    const reason = 'a URL is not a SQLite file (a PostgreSQL database is opened with --database / Store.openPostgres)';
    throw new DatabaseOpenError(redactUrl(file), new Error(reason));
  }
  let db: Database.Database | undefined;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Made owner-only before SQLite opens it; its -wal and -shm files take the same permissions.
    fs.closeSync(fs.openSync(file, 'a', 0o600));
    db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
    // Touches the header: a file that is not a database fails here, with its path in the message.
    db.pragma('schema_version');
    // A new file gives freed pages back to the file system a little at a time (storage-upkeep.ts); it must be set
    // before the first table exists. An older file is converted by Settings' "Clean up now".
    if (Number(db.pragma('page_count', { simple: true })) === 0) db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    // After a checkpoint the WAL file is cut back to this size instead of keeping its largest.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
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
