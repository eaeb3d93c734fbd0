// A write that failed because of the database or the disk, not because of the code: the database locked by another
// process, a full disk, a failing disk. Such a write is tried again later, from the event loop; the host stays up and
// the person is told what happened in these words.
import type { ErrorBody } from '../../src-shared/errors';

export type StorageFaultCode = 'database_busy' | 'disk_full' | 'storage_failing' | 'database_unreachable';

export interface StorageFault {
  code: StorageFaultCode;
  message: string;
}

const MESSAGES: Record<StorageFaultCode, string> = {
  database_busy: 'the database is locked by another process',
  disk_full: 'the disk is full',
  storage_failing: 'the disk failed to read or write',
  database_unreachable: 'the shared database does not answer',
};

/** SQLite's result codes (better-sqlite3's SqliteError.code, extended codes included) and Node's errno codes. */
function codeOf(code: string): StorageFaultCode | null {
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'database_busy';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') return 'disk_full';
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'storage_failing';
  // PostgreSQL (postgres/sync-client.ts): no answer in time, a connection refused or lost, the server shutting down
  // (SQLSTATE class 08, 57P); a lock or statement timeout (55P03, 57014) is another host holding the writers' lock.
  if (['MAESTRO_DB_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code)) {
    return 'database_unreachable';
  }
  if (/^(08|57P)/.test(code)) return 'database_unreachable';
  if (code === '55P03' || code === '57014') return 'database_busy';
  return null;
}

/** The storage fault behind an error (or its causes), or null when the error is something else. */
export function storageFault(error: unknown): StorageFault | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    const fault = typeof code === 'string' ? codeOf(code) : null;
    if (fault) return { code: fault, message: MESSAGES[fault] };
  }
  return null;
}

/** How long a caller is asked to wait before trying again (HTTP Retry-After, in seconds). */
export const STORAGE_RETRY_AFTER_S = 2;

/** The transport's answer for a storage fault: a retryable 503 with a stable code, saying what is wrong. */
export function storageErrorBody(fault: StorageFault): ErrorBody {
  return { code: fault.code, message: `${fault.message}; try again in a few seconds` };
}

/**
 * Whether the storage is failing now, as a background loop (the Worker's poll and heartbeats) sees it: a fault is
 * logged when it begins or changes and once when writes go through again, not at every attempt in between.
 */
export class StorageAlarm {
  private current: StorageFault | null = null;

  constructor(
    private readonly label: string,
    private readonly log: (line: string) => void = (line) => console.warn(line),
  ) {}

  get fault(): StorageFault | null {
    return this.current;
  }

  /** The error's storage fault, noted (and logged if new); null, and nothing noted, for any other error. */
  noted(error: unknown): StorageFault | null {
    const fault = storageFault(error);
    if (fault && fault.code !== this.current?.code) this.log(`${this.label}: ${fault.message}; trying again`);
    if (fault) this.current = fault;
    return fault;
  }

  /** A write went through. */
  cleared(): void {
    if (this.current) this.log(`${this.label}: writes go through again (${this.current.message} no longer)`);
    this.current = null;
  }
}
