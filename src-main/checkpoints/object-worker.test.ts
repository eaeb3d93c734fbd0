// The object worker (object-writer.ts): a large capture's reading, compressing and writing runs on its thread, so the
// event loop keeps turning meanwhile (its lag measured against the same capture made on the main thread); a worker
// that dies in the middle of a capture loses neither the capture nor its objects, which are finished here.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { gitIn, personRepo, type TempBase, tempBase, writeFiles } from '../../test-support/git-workspaces';
import { type GitSnapshotStore, openSnapshotStore } from './git-store';
import { OFFLOAD_BYTES, objectWriter } from './object-writer';
import type { SnapshotStore } from './types';

const bases: TempBase[] = [];
afterEach(() => {
  for (const b of bases.splice(0)) b.cleanup();
});
afterAll(() => objectWriter().close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FILES = 24;
const BYTES = 1024 * 1024;

/** Random (incompressible) contents for every big file: what a capture must read, compress and write. */
const bigFiles = () =>
  Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`big/f${i}.bin`, randomBytes(BYTES)]));

async function openRepo(big = true): Promise<{ t: TempBase; repo: string; store: GitSnapshotStore }> {
  const t = tempBase();
  bases.push(t);
  const repo = personRepo(t, { 'a.txt': 'alpha\n', ...(big ? bigFiles() : {}) });
  const store = (await openSnapshotStore({
    workspacePath: repo,
    dataDir: path.join(t.base, 'data'),
    taskId: 't1',
    maxFileBytes: 16 * BYTES,
  })) as GitSnapshotStore;
  return { t, repo, store };
}

/** Waits until the worker answers large requests (its start is no capture's wait: until then they run here). */
async function workerUp(): Promise<void> {
  const writer = objectWriter();
  const db = { dir: path.join(bases[0]?.base ?? '', 'probe-objects'), format: 'sha1' as const };
  for (let i = 0; i < 400; i++) {
    const before = writer.ran.worker;
    await writer.run({ op: 'objects', db, objects: [{ type: 'blob', body: Buffer.alloc(OFFLOAD_BYTES) }] });
    if (writer.ran.worker > before) return;
    await sleep(50);
  }
  throw new Error('the object worker never came up');
}

/** The event loop's longest stall (ms) while `work` runs: a 2 ms timer's largest gap. */
async function longestStall<T>(work: () => Promise<T>): Promise<{ result: T; stall: number }> {
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 2);
  try {
    const result = await work();
    return { result, stall: Math.max(stall, performance.now() - last) };
  } finally {
    clearInterval(timer);
  }
}

/** Every big file's blob in `tree` is the one git names for the file on disk, and is stored. */
function expectStored(t: TempBase, repo: string, tree: string): void {
  for (let i = 0; i < FILES; i++) {
    const file = `big/f${i}.bin`;
    const oid = gitIn(repo, t.env, 'rev-parse', `${tree}:${file}`).trim();
    expect(oid, file).toBe(gitIn(repo, t.env, 'hash-object', file).trim());
    expect(gitIn(repo, t.env, 'cat-file', '-t', oid).trim(), file).toBe('blob');
  }
}

const capture = (store: SnapshotStore) => store.capture();

describe('the object worker (issue 22, step overhead)', () => {
  it('a capture of 24 MB of changed files runs on the worker: the event loop is not held, as it is when the same capture runs on the main thread; the snapshot is git’s', async () => {
    const { t, repo, store } = await openRepo();
    const first = await store.snapshot('tasks/t1/0', null);
    await workerUp();
    const writer = objectWriter();

    writeFiles(repo, bigFiles());
    const ran = { ...writer.ran };
    const fast = store.captureCounts.fast;
    const onWorker = await longestStall(() => capture(store));
    expect(store.captureCounts.fast, 'made in-process, without git').toBe(fast + 1);
    expect(writer.ran.worker - ran.worker, 'its blobs written by the worker').toBeGreaterThanOrEqual(1);
    const sealed = await store.seal(onWorker.result, 'tasks/t1/1', first.commit);
    expectStored(t, repo, sealed.tree);
    expect(sealed.files).toHaveLength(FILES);

    // The same capture on the main thread: the worker stopped, the next requests run here until a new one is up.
    await writer.close();
    writeFiles(repo, bigFiles());
    const here = writer.ran.here;
    const onMain = await longestStall(() => capture(store));
    expect(writer.ran.here, 'made on the main thread').toBeGreaterThan(here);
    expectStored(t, repo, (await store.seal(onMain.result, 'tasks/t1/2', sealed.commit)).tree);

    // Hashing and compressing 24 MB holds the main thread for the whole capture; on the worker, only stats do.
    expect(
      onWorker.stall,
      `stall on the worker ${onWorker.stall} ms, on the main thread ${onMain.stall} ms`,
    ).toBeLessThan(onMain.stall / 2);
  }, 120_000);

  it('a step’s few KB are stored on the main thread (a round trip to the thread costs more), and are git’s', async () => {
    const { t, repo, store } = await openRepo(false);
    const first = await store.snapshot('tasks/t1/0', null);
    const writer = objectWriter();
    writeFiles(repo, { 'a.txt': 'alpha, edited\n', 'b.txt': 'new\n' });
    const ran = { ...writer.ran };
    const sealed = await store.seal(await capture(store), 'tasks/t1/1', first.commit);
    expect(writer.ran.worker).toBe(ran.worker);
    expect(writer.ran.here).toBeGreaterThan(ran.here);
    expect(gitIn(repo, t.env, 'cat-file', 'blob', `${sealed.tree}:a.txt`)).toBe('alpha, edited\n');
    expect(gitIn(repo, t.env, 'cat-file', 'blob', `${sealed.tree}:b.txt`)).toBe('new\n');
  }, 120_000);

  it('a worker that dies in the middle of a capture: the capture is finished on the main thread, its objects stored, its snapshot kept; the next capture starts a new worker', async () => {
    const { t, repo, store } = await openRepo();
    const first = await store.snapshot('tasks/t1/0', null);
    await workerUp();
    const writer = objectWriter();
    const thread = writer.worker;
    if (!thread) throw new Error('no worker');
    // The thread is killed as soon as it is handed the capture's first request.
    const post = thread.postMessage.bind(thread);
    thread.postMessage = (message: unknown) => {
      post(message);
      void thread.terminate();
    };
    writeFiles(repo, bigFiles());
    const here = writer.ran.here;
    const captured = await capture(store);
    expect(writer.ran.here, 'finished here').toBeGreaterThan(here);
    expect(writer.worker).not.toBe(thread);
    const sealed = await store.seal(captured, 'tasks/t1/1', first.commit);
    await store.keepRefs([{ ref: 'tasks/t1/1', commit: sealed.commit }]);
    expectStored(t, repo, sealed.tree);
    expect(gitIn(repo, t.env, 'rev-parse', 'refs/maestro/tasks/t1/1').trim()).toBe(sealed.commit);

    // A new worker takes the next captures once it is up.
    await workerUp();
    expect(writer.worker).not.toBeNull();
    expect(writer.worker).not.toBe(thread);
    writeFiles(repo, bigFiles());
    const worked = writer.ran.worker;
    const next = await store.seal(await capture(store), 'tasks/t1/2', sealed.commit);
    expect(writer.ran.worker).toBeGreaterThan(worked);
    expectStored(t, repo, next.tree);
  }, 120_000);
});
