// A PostgreSQL connection the Store can call synchronously. The repositories, the Worker and the engine are written
// against synchronous SQL (better-sqlite3): a transaction is a stretch of code no other code of this process runs
// inside, which is what keeps each host's invariants (one claim, one started marker, events in commit order) simple.
// Rather than make every caller asynchronous, PostgreSQL is reached the way better-sqlite3 reaches its file: the
// calling thread waits for the answer. The `pg` client runs on a worker thread; the caller posts a batch of statements
// and sleeps on a shared word (Atomics.wait) until the worker has answered, then takes the answer from the port with
// receiveMessageOnPort — the technique synckit packages; written out here because the worker is twenty lines of plain
// JavaScript that no bundler has to know about.
//
// The cost is one round trip per call with the event loop held, as a disk write holds it for SQLite: right for a
// database on the same machine or LAN, not across a WAN. Every wait is bounded: a database that does not answer within
// `timeoutMs` fails the call (a storage fault, as a locked SQLite file is), the worker is replaced and its connection
// dropped, so PostgreSQL rolls back whatever that connection had open.
import { createRequire } from 'node:module';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

/** One statement of a batch: `$1 …` placeholders, values in order. */
export interface SqlCall {
  sql: string;
  params?: unknown[];
}

export interface SqlResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

/** An error PostgreSQL (or the connection) raised, with its SQLSTATE or errno code. */
export class PostgresError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'PostgresError';
  }
}

/** The worker's code. CommonJS, evaluated: `pg` is required by the path this module resolved. */
const WORKER = `
const { workerData } = require('node:worker_threads');
const pg = require(workerData.pgPath);
const { port, flag, url, statementTimeoutMs } = workerData;
const int = (v) => (v === null ? null : Number(v));
// Integers as numbers (timestamps in ms and counts fit in 2^53); booleans as 1/0, as SQLite gives them.
const parsers = { 20: int, 21: int, 23: int, 1700: int, 16: (v) => (v === 't' ? 1 : 0) };
const types = { getTypeParser: (oid, format) => parsers[oid] || pg.types.getTypeParser(oid, format) };
const client = new pg.Client({ connectionString: url, types, statement_timeout: statementTimeoutMs,
  idle_in_transaction_session_timeout: statementTimeoutMs * 2, application_name: 'maestro' });
let lost = null;
const names = new Map();
client.on('error', (e) => { lost = e; });
const ready = client.connect();
const answer = (message) => { port.postMessage(message); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
port.on('message', async ({ id, calls, end }) => {
  const results = [];
  if (end) {
    await client.end().catch(() => {});
    answer({ id, results });
    return;
  }
  try {
    await ready;
    if (lost) throw lost;
    for (const call of calls) {
      // Buffers arrive as Uint8Array; pg wants a Buffer for bytea.
      const values = call.params && call.params.map((v) => (v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v));
      // A statement with parameters is prepared once per connection (named by its text's first use): the
      // repositories run the same few statements again and again.
      let name;
      if (values) {
        name = names.get(call.sql);
        if (!name) names.set(call.sql, (name = 's' + names.size));
      }
      const answered = await client.query({ name, text: call.sql, values });
      // Several statements without parameters answer one result each: the last is the batch's.
      const r = Array.isArray(answered) ? answered[answered.length - 1] : answered;
      results.push({ rows: r.rows, rowCount: r.rowCount ?? 0 });
    }
    answer({ id, results });
  } catch (e) {
    answer({ id, error: { message: String(e && e.message || e), code: e && e.code, detail: e && e.detail } });
  }
});
`;

export interface SyncClientOptions {
  /** How long one call may wait for its answer before it fails and the connection is replaced. */
  timeoutMs?: number;
}

/** One connection, called synchronously. Not for concurrent use from several threads. */
export class SyncPostgresClient {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;
  private readonly timeoutMs: number;

  constructor(
    readonly url: string,
    options: SyncClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  /** Runs the statements in order on the one connection; the first failure ends the batch and is thrown. */
  run(calls: SqlCall[]): SqlResult[] {
    return this.call({ calls }, this.timeoutMs);
  }

  private call(message: { calls?: SqlCall[]; end?: true }, timeoutMs: number): SqlResult[] {
    const port = this.connect();
    const id = this.nextId++;
    Atomics.store(this.flag, 0, 0);
    port.postMessage({ id, ...message });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || Atomics.wait(this.flag, 0, 0, left) === 'timed-out') {
        this.reset();
        throw new PostgresError(`the PostgreSQL database did not answer within ${timeoutMs} ms`, 'MAESTRO_DB_TIMEOUT');
      }
      Atomics.store(this.flag, 0, 0);
      // Answers to calls that timed out earlier went with their worker; any other stray answer is skipped.
      for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
        const message = m.message as { id: number; results?: SqlResult[]; error?: WireError };
        if (message.id !== id) continue;
        if (message.error) {
          // A connection that failed (no SQLSTATE but an errno code, or SQLSTATE class 08 or 57P) stays failed in `pg`:
          // the next call opens a new one.
          const code = message.error.code;
          if (!code || !/^[0-9A-Z]{5}$/.test(code) || /^(08|57P)/.test(code)) this.reset();
          throw new PostgresError(message.error.message, message.error.code ?? 'ECONNRESET', message.error.detail);
        }
        return (message.results ?? []).map(fromWire);
      }
    }
  }

  /** Ends the connection (its session closed cleanly, so the database is free at once), then the thread. */
  close(): void {
    if (this.port) {
      try {
        this.call({ end: true }, 1_000);
      } catch {
        // Ended below all the same.
      }
    }
    this.reset();
  }

  private connect(): MessagePort {
    if (this.port) return this.port;
    const { port1, port2 } = new MessageChannel();
    const pgPath = createRequire(__filename).resolve('pg');
    this.worker = new Worker(WORKER, {
      eval: true,
      workerData: { port: port2, flag: this.flag, url: this.url, pgPath, statementTimeoutMs: this.timeoutMs },
      transferList: [port2],
    });
    // The thread must not keep a finished host alive; its errors surface as failed calls.
    this.worker.unref();
    this.worker.on('error', () => this.reset());
    this.port = port1;
    return port1;
  }

  private reset(): void {
    this.port?.close();
    void this.worker?.terminate();
    this.port = null;
    this.worker = null;
  }
}

interface WireError {
  message: string;
  code?: string;
  detail?: string;
}

/** Buffers cross the thread as Uint8Array. */
function fromWire(result: SqlResult): SqlResult {
  for (const row of result.rows)
    for (const [k, v] of Object.entries(row))
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return result;
}
