// The Store's database on PostgreSQL: the part of better-sqlite3's interface the repositories use (prepare → get, all,
// run, pluck; exec; transaction), over a synchronous connection (sync-client.ts). The repositories' SQL is written in
// what both dialects share; the few places that differ ask `dialect` (sql-dialect.ts). Here only the placeholders
// change: better-sqlite3's `?` and `@name` become PostgreSQL's `$n`.
//
// Writers are serialised across hosts as SQLite serialises them within a file: every transaction that writes takes one
// transaction-scoped advisory lock first. That keeps the events' seq in commit order — a reader that has seen seq N
// never later finds a smaller seq committed — which the SSE resume and the fan-out rely on, and it keeps each
// IMMEDIATE transaction's read-then-write as safe across hosts as it is within one. A single statement outside a
// transaction is atomic by itself (the repositories' writes are compare-and-set): it runs without the lock unless it
// appends to the events. Claims use FOR UPDATE SKIP LOCKED (jobs.ts): a job row another transaction holds is passed
// over, never waited on.
import type { RunResult, Statement } from 'better-sqlite3';
import { PostgresError, type SqlCall, type SqlResult, SyncPostgresClient } from './sync-client';

/** The key of the writers' advisory lock ('MAES'). */
const WRITE_LOCK = 0x4d414553;
const LOCK: SqlCall = { sql: `SELECT pg_advisory_xact_lock(${WRITE_LOCK})` };
/** BEGIN and the lock in one round trip (no parameters: one simple query of two statements). */
const BEGIN_LOCKED: SqlCall = { sql: `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK})` };
const APPENDS_EVENTS = /\bINSERT\s+INTO\s+events\b/i;

interface Translated {
  sql: string;
  /** For named parameters: the name of each `$n`, in order; null for positional ones. */
  names: string[] | null;
  writes: boolean;
}

/** Rewrites `?` / `@name` / `:name` / `$name` outside quotes and comments into `$1 …`. */
export function translatePlaceholders(source: string): Translated {
  let out = '';
  let positional = 0;
  const names: string[] = [];
  for (let i = 0; i < source.length; ) {
    const c = source[i];
    if (c === "'" || c === '"') {
      const end = closing(source, i, c);
      out += source.slice(i, end);
      i = end;
    } else if (c === '-' && source[i + 1] === '-') {
      const end = source.indexOf('\n', i);
      out += source.slice(i, end < 0 ? source.length : end);
      i = end < 0 ? source.length : end;
    } else if (c === '?') {
      out += `$${++positional}`;
      i++;
    } else if (
      (c === '@' || c === ':' || c === '$') &&
      /[A-Za-z_]/.test(source[i + 1] ?? '') &&
      source[i - 1] !== ':'
    ) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i + 1))?.[0] as string;
      let index = names.indexOf(name);
      if (index < 0) index = names.push(name) - 1;
      out += `$${index + 1}`;
      i += name.length + 1;
    } else {
      out += c;
      i++;
    }
  }
  if (positional > 0 && names.length > 0) throw new Error(`SQL mixes ? and named parameters: ${source}`);
  const head = out.trimStart().slice(0, 6).toUpperCase();
  return { sql: out, names: names.length ? names : null, writes: !(head === 'SELECT' || isReadOnlyWith(out)) };
}

function closing(source: string, start: number, quote: string): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] !== quote) continue;
    if (source[i + 1] === quote) i++;
    else return i + 1;
  }
  return source.length;
}

const isReadOnlyWith = (sql: string) => /^\s*WITH\b/i.test(sql) && !/\b(INSERT|UPDATE|DELETE)\b/i.test(sql);

class PgStatement {
  private plucked = false;
  readonly reader: boolean;

  constructor(
    private readonly db: PostgresDb,
    private readonly q: Translated,
    readonly source: string,
  ) {
    this.reader = !q.writes || /\bRETURNING\b/i.test(q.sql);
  }

  get(...args: unknown[]): unknown {
    return this.shape(this.execute(args).rows)[0];
  }

  all(...args: unknown[]): unknown[] {
    return this.shape(this.execute(args).rows);
  }

  run(...args: unknown[]): RunResult {
    const result = this.execute(args);
    // No rowid in PostgreSQL: an insert that needs its key says RETURNING.
    return { changes: result.rowCount, lastInsertRowid: 0 };
  }

  pluck(toggle = true): this {
    this.plucked = toggle;
    return this;
  }

  private shape(rows: Record<string, unknown>[]): unknown[] {
    return this.plucked ? rows.map((r) => Object.values(r)[0]) : rows;
  }

  private execute(args: unknown[]): SqlResult {
    return this.db.execute({ sql: this.q.sql, params: bind(this.q, args, this.source) }, this.q.writes);
  }
}

function bind(q: Translated, args: unknown[], source: string): unknown[] {
  const value = (v: unknown) => (v === undefined ? null : typeof v === 'boolean' ? Number(v) : v);
  if (!q.names) return args.map(value);
  const named = (args[0] ?? {}) as Record<string, unknown>;
  return q.names.map((name) => {
    if (!(name in named)) throw new RangeError(`missing named parameter "${name}" for: ${source}`);
    return value(named[name]);
  });
}

/** The Store's connection to PostgreSQL, shaped like the part of better-sqlite3's Database the repositories use. */
export class PostgresDb {
  readonly dialect = 'postgres' as const;
  /** The URL without its password: what messages may name. */
  readonly name: string;
  private client: SyncPostgresClient | null;
  private depth = 0;
  private locked = false;

  constructor(url: string, options: { timeoutMs?: number } = {}) {
    this.client = new SyncPostgresClient(url, options);
    this.name = redactUrl(url);
  }

  get open(): boolean {
    return this.client !== null;
  }

  prepare(source: string): Statement {
    return new PgStatement(this, translatePlaceholders(source), source) as unknown as Statement;
  }

  /** Statements without parameters, several separated by semicolons. */
  exec(sql: string): this {
    this.execute({ sql }, true);
    return this;
  }

  /**
   * better-sqlite3's transaction(): the returned function runs `fn` in a transaction (a savepoint when nested);
   * `.immediate()` takes the writers' lock at BEGIN, a plain call when its first write comes.
   */
  transaction<F extends (...args: never[]) => unknown>(fn: F) {
    const run = (immediate: boolean, args: Parameters<F>) => this.inTx(immediate, () => fn(...args) as ReturnType<F>);
    const plain = (...args: Parameters<F>) => run(false, args);
    return Object.assign(plain, {
      deferred: plain,
      immediate: (...args: Parameters<F>) => run(true, args),
      exclusive: (...args: Parameters<F>) => run(true, args),
    });
  }

  close(): this {
    this.client?.close();
    this.client = null;
    return this;
  }

  /**
   * One statement. In a transaction, its first write takes the writers' lock (unless `.immediate()` took it at BEGIN);
   * outside one, a write that appends events is a transaction of its own under the lock, any other runs as it is.
   */
  execute(call: SqlCall, writes: boolean): SqlResult {
    const client = this.connection();
    if (this.depth > 0) {
      if (writes && !this.locked) {
        client.run([LOCK]);
        this.locked = true;
      }
      return client.run([call])[0] as SqlResult;
    }
    if (!writes || !APPENDS_EVENTS.test(call.sql)) return client.run([call])[0] as SqlResult;
    try {
      return client.run([BEGIN_LOCKED, call, { sql: 'COMMIT' }])[1] as SqlResult;
    } catch (error) {
      this.rollbackQuietly();
      throw error;
    }
  }

  private inTx<T>(immediate: boolean, fn: () => T): T {
    const client = this.connection();
    if (this.depth > 0) {
      const name = `s${this.depth}`;
      client.run([{ sql: `SAVEPOINT ${name}` }]);
      this.depth++;
      try {
        const result = fn();
        client.run([{ sql: `RELEASE SAVEPOINT ${name}` }]);
        return result;
      } catch (error) {
        client.run([{ sql: `ROLLBACK TO SAVEPOINT ${name}` }]);
        throw error;
      } finally {
        this.depth--;
      }
    }
    client.run([immediate ? BEGIN_LOCKED : { sql: 'BEGIN' }]);
    this.depth = 1;
    this.locked = immediate;
    try {
      const result = fn();
      client.run([{ sql: 'COMMIT' }]);
      return result;
    } catch (error) {
      this.rollbackQuietly();
      throw error;
    } finally {
      this.depth = 0;
      this.locked = false;
    }
  }

  private rollbackQuietly(): void {
    try {
      this.client?.run([{ sql: 'ROLLBACK' }]);
    } catch {
      // The connection is gone: PostgreSQL rolled the transaction back with it.
    }
  }

  private connection(): SyncPostgresClient {
    if (!this.client) throw new PostgresError(`the database ${this.name} is closed`, 'MAESTRO_DB_CLOSED');
    return this.client;
  }
}

/** postgres://user:secret@host/db → postgres://user@host/db */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
