// The host's object worker: the files a capture reads and names, and the objects a capture or a seal writes, are
// handled on a worker thread (object-worker.ts) when there is much of them, so that the main thread — the model's
// stream, the bridge, the UI — is never held long by zlib or the disk. A step's usual few KB stay here: on a loaded
// machine a round trip to a thread costs more than hashing them (the step bench measured 2.2× with every request sent
// against 1.45× without, on the same machine). One worker per process, started at the first large request, never
// keeping the process alive when idle, terminated when the host closes. Until it is up, and whenever it cannot be (no
// worker file, a crash, the host closing), requests run here, so a capture never waits on the thread nor is lost
// with it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { assertNever } from '../../src-shared/assert-never';
import { type ObjectAnswer, type ObjectRequest, runObjectRequest } from './object-ops';

/** Past this many crashes in a process, requests are run here for the rest of it. */
const MAX_CRASHES = 3;
/** A request with fewer bytes to read or write than this runs here (see the file's comment). */
export const OFFLOAD_BYTES = 256 * 1024;

/** The bytes a request reads (its files' sizes) or writes. */
function bytesOf(request: ObjectRequest): number {
  switch (request.op) {
    case 'blobs':
      return request.files.reduce((n, f) => n + f.key.size, 0);
    case 'objects':
      return request.objects.reduce((n, o) => n + o.body.length, 0);
    default:
      return assertNever(request);
  }
}

/** The worker's file, or code to evaluate (that loads the TypeScript source). */
interface WorkerEntry {
  file: string;
  eval: boolean;
}

type Pending = { request: ObjectRequest; resolve: (result: unknown) => void; reject: (error: Error) => void };

/**
 * Where the worker's code is: beside this module when built (out/main/object-worker.js, or one folder up from a
 * shared chunk), or the TypeScript source with tsx's loader when the host runs from source (tests, benches).
 */
function workerEntry(): WorkerEntry | null {
  if (__filename.endsWith('.ts')) {
    const tsx = createRequire(__filename).resolve('tsx/cjs');
    const source = path.join(__dirname, 'object-worker.ts');
    return { file: `require(${JSON.stringify(tsx)}); require(${JSON.stringify(source)});`, eval: true };
  }
  const file = [__dirname, path.dirname(__dirname)]
    .map((dir) => path.join(dir, 'object-worker.js'))
    .find((f) => fs.existsSync(f));
  return file ? { file, eval: false } : null;
}

export class ObjectWriter {
  private thread: Worker | null = null;
  /** Whether the thread runs (requests sent before are run here instead: its start is no one's wait). */
  private online = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private crashes = 0;
  private entry: WorkerEntry | null | undefined;
  /** How many requests ran on the worker and how many here (what the tests look at). */
  readonly ran = { worker: 0, here: 0 };

  /** Runs a large `request` on the worker when it is up, else here. Rejects with what the request threw. */
  run<R extends ObjectRequest>(request: R): Promise<ObjectAnswer<R>> {
    if (bytesOf(request) < OFFLOAD_BYTES) return this.here(request);
    const thread = this.start();
    if (!thread || !this.online) return this.here(request);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { request, resolve: resolve as (r: unknown) => void, reject });
      if (this.pending.size === 1) thread.ref();
      thread.postMessage({ id, request });
    });
  }

  /** The worker thread, while one runs. */
  get worker(): Worker | null {
    return this.thread;
  }

  /** Stops the worker (its requests in flight are finished here); the next request starts a new one. */
  async close(): Promise<void> {
    const thread = this.thread;
    if (!thread) return;
    this.drop(thread);
    await thread.terminate();
  }

  private here<R extends ObjectRequest>(request: R): Promise<ObjectAnswer<R>> {
    this.ran.here++;
    try {
      return Promise.resolve(runObjectRequest(request) as ObjectAnswer<R>);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private start(): Worker | null {
    if (this.thread || this.crashes >= MAX_CRASHES) return this.thread;
    this.entry ??= workerEntry();
    if (!this.entry) return null;
    let thread: Worker;
    try {
      thread = new Worker(this.entry.file, { eval: this.entry.eval });
    } catch (error) {
      this.crashes = MAX_CRASHES;
      console.error('checkpoints: the object worker cannot be started, objects are written here:', error);
      return null;
    }
    thread.unref();
    thread.on('online', () => {
      if (this.thread === thread) this.online = true;
    });
    thread.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
      const waiting = this.pending.get(id);
      if (!waiting) return;
      this.pending.delete(id);
      if (this.pending.size === 0) thread.unref();
      this.ran.worker++;
      if (error !== undefined) waiting.reject(new Error(error));
      else waiting.resolve(result);
    });
    thread.on('error', (error) => console.error('checkpoints: the object worker failed:', error));
    thread.on('exit', (code) => {
      if (this.thread !== thread) return;
      this.crashes++;
      console.error(`checkpoints: the object worker stopped (exit ${code}); its requests are finished here`);
      this.drop(thread);
    });
    this.thread = thread;
    this.online = false;
    return thread;
  }

  /** Forgets `thread`: what it was asked and has not answered is run here. */
  private drop(thread: Worker): void {
    if (this.thread === thread) {
      this.thread = null;
      this.online = false;
    }
    const left = [...this.pending.values()];
    this.pending.clear();
    for (const p of left) this.here(p.request).then(p.resolve, p.reject);
  }
}

let writer: ObjectWriter | null = null;

/** The process's object writer. */
export function objectWriter(): ObjectWriter {
  writer ??= new ObjectWriter();
  return writer;
}
