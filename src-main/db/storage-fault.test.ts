// The host against a storage that refuses writes: a database another process holds locked, and a full disk. The host
// stays up, the bridge answers a retryable 503, the event loop never stalls for long, and work goes on afterwards.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { arrival, complete, engineHarness } from '../../test-support/engine-harness';
import { tempDir } from '../../test-support/temp-maestro';
import { startBridge } from '../bridge/server';
import { DEFAULT_BUSY_TIMEOUT_MS } from './connection';
import { StorageAlarm, storageFault } from './storage-fault';

/** The 45 s lock, run in every suite; MAESTRO_LOCK_TEST_MS=8000 (still past every timeout) for a quick run. */
const LOCK_MS = Number(process.env.MAESTRO_LOCK_TEST_MS ?? 45_000);
const TOKEN = 'storage-fault-test-token-0123456789';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

interface Answer {
  status: number;
  retryAfter: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: test responses are inspected freely
  json: any;
}

async function request(url: string, method: string, p: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${url}/api/local${p}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), json: await res.json() };
}

/** A second process holding `BEGIN EXCLUSIVE` on the database for `ms`; resolves once it holds the lock. */
async function lockDatabase(file: string, ms: number): Promise<{ released: Promise<number> }> {
  const code = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN EXCLUSIVE');
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${ms});
    db.exec('COMMIT');
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', code], { cwd: path.resolve(__dirname, '../..'), stdio: 'pipe' });
  children.push(child);
  const released = new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.on('exit', (c) => reject(new Error(`the locking process exited (${c}) before it held the lock`)));
  });
  return { released };
}

describe('storage faults are told apart from other errors', () => {
  it('SQLite and errno codes, through causes; an alarm logs a fault once and its end once', () => {
    const sqlite = (code: string) => Object.assign(new Error('x'), { code });
    expect(storageFault(sqlite('SQLITE_BUSY'))?.code).toBe('database_busy');
    expect(storageFault(sqlite('SQLITE_BUSY_SNAPSHOT'))?.code).toBe('database_busy');
    expect(storageFault(sqlite('SQLITE_FULL'))?.message).toBe('the disk is full');
    expect(storageFault(new Error('wrapped', { cause: sqlite('ENOSPC') }))?.code).toBe('disk_full');
    expect(storageFault(sqlite('SQLITE_IOERR_WRITE'))?.code).toBe('storage_failing');
    expect(storageFault(sqlite('SQLITE_CONSTRAINT_UNIQUE'))).toBeNull();
    expect(storageFault(new TypeError('a bug'))).toBeNull();
    const lines: string[] = [];
    const alarm = new StorageAlarm('w', (l) => lines.push(l));
    alarm.noted(sqlite('SQLITE_BUSY'));
    alarm.noted(sqlite('SQLITE_BUSY'));
    alarm.cleared();
    alarm.cleared();
    expect(lines).toEqual([
      'w: the database is locked by another process; trying again',
      'w: writes go through again (the database is locked by another process no longer)',
    ]);
  });
});

describe('a locked database', () => {
  it(
    `a locked database for ${LOCK_MS / 1000} s: the host stays up, the bridge answers 503 database_busy, the event loop never stalls > 1 s, and the job finishes afterwards with nothing acknowledged lost`,
    async () => {
      expect(LOCK_MS).toBeGreaterThan(5_000 + DEFAULT_BUSY_TIMEOUT_MS); // outlasts the busy timeout and the retry wait
      // The reply is held long enough for the lock to be taken first: its step is then written during the lock.
      const first = arrival({ text: 'looking', delayMs: 2_000 });
      const h = await engineHarness([first.entry, complete('finished after the lock')]);
      const bridge = await startBridge({ maestro: h.maestro, token: TOKEN, port: 0 });
      const api = (method: string, p: string, body?: unknown) => request(bridge.url, method, p, body);
      try {
        const { taskId, jobId } = h.createTask('work through a lock');
        await first.arrived;
        // Acknowledged before the lock: must survive it.
        const before = await api('POST', `/tasks/${taskId}/comments`, { body: 'said before the lock' });
        expect(before.status).toBe(201);

        const lock = await lockDatabase(h.maestro.store.db.name, LOCK_MS);
        const delay = monitorEventLoopDelay({ resolution: 10 });
        delay.enable();
        const refused = await api('POST', `/tasks/${taskId}/comments`, { body: 'said during the lock' });
        expect(refused).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
        expect(refused.json.error).toMatchObject({ code: 'database_busy' });
        expect(refused.json.error.message).toMatch(/^the database is locked by another process/);
        // Reads go on (WAL): the task is there, with the comment acknowledged before.
        const during = await api('GET', `/tasks/${taskId}`);
        expect(during.status).toBe(200);
        expect(await lock.released).toBe(0);
        delay.disable();
        console.info(`longest event-loop stall during the ${LOCK_MS} ms lock: ${Math.round(delay.max / 1e6)} ms`);
        expect(delay.max / 1e6).toBeLessThan(1_000);

        const done = await h.waitFor(jobId, ['succeeded', 'failed'], 20_000).catch((error) => {
          const job = h.maestro.store.jobs.get(jobId);
          throw new Error(`${error.message} (error: ${job?.error}, attempt ${job?.attempt}, next ${job?.nextRetryAt})`);
        });
        expect(done.status).toBe('succeeded');
        expect(done.attempt).toBe(1); // the lock did not use up an attempt
        const errors = h.events.flatMap((e) =>
          e.type === 'job.changed' && e.jobId === jobId && e.job.error ? [e.job.error] : [],
        );
        expect(errors).toContain('the database is locked by another process (database_busy)');
        const task = await api('GET', `/tasks/${taskId}`);
        const bodies = task.json.comments.map((c: { body: string }) => c.body);
        expect(bodies).toContain('said before the lock');
        expect(bodies).not.toContain('said during the lock');
        expect((await api('POST', `/tasks/${taskId}/comments`, { body: 'after' })).status).toBe(201);
      } finally {
        await bridge.close();
      }
    },
    LOCK_MS + 40_000,
  );
});

/** Mounts a tmpfs of `size` on `dir` (root only); the reason when it cannot. */
function mountTmpfs(dir: string, size: string): string | null {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return `cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]})`;
  }
}

/** Writes into `file` until the file system is full. */
function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}

describe('a full disk', () => {
  it('a full disk (data dir on a 4 MiB tmpfs): the host stays up, the bridge answers 503 disk_full, the job pauses saying the disk is full, and after space is freed new work goes on', async (ctx) => {
    const dataDir = tempDir();
    const why = mountTmpfs(dataDir, '4m');
    if (why) {
      console.info(`skipped: ${why}`);
      ctx.skip();
    }
    // A long reply: its transcript append needs fresh blocks, which a full disk does not have.
    const first = arrival({ text: 'x'.repeat(200_000), delayMs: 500 });
    const h = await engineHarness([first.entry, complete('finished after space was freed')], { dataDir });
    const bridge = await startBridge({ maestro: h.maestro, token: TOKEN, port: 0 });
    const api = (method: string, p: string, body?: unknown) => request(bridge.url, method, p, body);
    const filler = path.join(dataDir, 'filler');
    try {
      const { jobId } = h.createTask('work on a full disk');
      await first.arrived;
      fillDisk(filler);
      // SQLite may still have room in its files; writes that need more fail soon.
      let refused: Answer | undefined;
      for (let i = 0; i < 200 && !refused; i++) {
        const res = await api('POST', '/tasks', { instruction: `fill ${i} ${'y'.repeat(20_000)}` });
        if (res.status !== 201) refused = res;
      }
      expect(refused).toMatchObject({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
      expect(refused?.json.error).toMatchObject({
        code: 'disk_full',
        message: expect.stringMatching(/^the disk is full/),
      });
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // the job's reply arrives and cannot be written
      // Paused: still held while its outcome waits to be written, or back in retry; not failed.
      expect(['running', 'retry']).toContain(h.maestro.store.jobs.get(jobId)?.status);
      fs.rmSync(filler);

      const done = await h.waitFor(jobId, ['succeeded', 'failed'], 20_000);
      expect(done.status).toBe('succeeded');
      const errors = h.events.flatMap((e) =>
        e.type === 'job.changed' && e.jobId === jobId && e.job.error ? [e.job.error] : [],
      );
      expect(errors).toContain('the disk is full (disk_full)');
      expect((await api('POST', '/tasks', { instruction: 'new work' })).status).toBe(201);
    } finally {
      await bridge.close();
      await h.maestro.close();
      execFileSync('umount', ['-l', dataDir]);
    }
  }, 60_000);
});
