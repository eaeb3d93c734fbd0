import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { Store } from '../db/store';

const CHILD = path.join(__dirname, 'claim-race.child.ts');
const ROOT = path.resolve(__dirname, '..', '..');

function openPair() {
  const file = path.join(tempDir(), 'maestro.db');
  const a = Store.open(file);
  const b = Store.open(file);
  const close = () => {
    a.close();
    b.close();
  };
  return { file, a, b, close };
}

function seedJobs(store: Store, tasks: number, jobsPerTask: number): string[] {
  const ids: string[] = [];
  const now = Date.now();
  store.transact(() => {
    for (let t = 0; t < tasks; t++) {
      const taskId = `task_c${t}`;
      store.tasks.insert({
        id: taskId,
        title: 't',
        instruction: 'i',
        pieceId: 'default',
        workspacePath: '/tmp',
        workspaceKind: 'persistent',
        profile: null,
        parentTaskId: null,
        createdAt: now,
      });
      for (let j = 0; j < jobsPerTask; j++) {
        ids.push(
          store.jobs.insert({ taskId, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' }, now + j).id,
        );
      }
    }
  });
  return ids;
}

function lines(child: ChildProcess): AsyncIterator<string> {
  let buffer = '';
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      queue.push(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
    wake?.();
  });
  child.stdout?.on('end', () => {
    ended = true;
    wake?.();
  });
  return {
    async next() {
      while (queue.length === 0 && !ended) await new Promise<void>((r) => (wake = r));
      const value = queue.shift();
      return value === undefined ? { done: true, value: undefined } : { done: false, value };
    },
  };
}

describe('claim atomicity', () => {
  it('P2.06 two connections claim the same job at once → exactly one wins, the other claims nothing', () => {
    const { a, b, close } = openPair();
    try {
      const [id] = seedJobs(a, 1, 1);
      const first = a.jobs.claimNext({ workerId: 'worker_a', profiles: null });
      const second = b.jobs.claimNext({ workerId: 'worker_b', profiles: null });
      expect(first?.id).toBe(id);
      expect(second).toBeUndefined();
      expect(b.jobs.get(id as string)).toMatchObject({ status: 'running', workerId: 'worker_a', attempt: 1 });
    } finally {
      close();
    }
  });

  it('P2.06 P2.05 interleaved claims on two connections: every job claimed exactly once, one running job per task', () => {
    const { a, b, close } = openPair();
    try {
      const ids = seedJobs(a, 20, 5);
      const owner = new Map<string, string>();
      const stores = [a, b] as const;
      for (let round = 0; owner.size < ids.length && round < 1_000; round++) {
        const store = stores[round % 2] as Store;
        const workerId = round % 2 ? 'worker_b' : 'worker_a';
        const job = store.jobs.claimNext({ workerId, profiles: null });
        if (!job) continue;
        expect(owner.has(job.id)).toBe(false);
        owner.set(job.id, workerId);
        const running = store.db
          .prepare(`SELECT task_id, count(*) AS n FROM jobs WHERE status = 'running' GROUP BY task_id HAVING n > 1`)
          .all();
        expect(running).toEqual([]);
        // Every other claim finishes its job, so the per-task lock is released and taken again across connections.
        if (round % 3 !== 0) store.jobs.transition(job.id, 'running', 'succeeded', {}, { owner: workerId });
        else
          (stores[(round + 1) % 2] as Store).jobs.transition(job.id, 'running', 'succeeded', {}, { owner: workerId });
      }
      expect([...owner.keys()].sort()).toEqual([...ids].sort());
    } finally {
      close();
    }
  });

  it('P2.06 two processes hammering claims on one DB file: every job claimed exactly once', async () => {
    const { file, a, close } = openPair();
    const ids = seedJobs(a, 200, 5);
    close();
    const children = [
      ['proc_a', 'proc_b'],
      ['proc_b', 'proc_a'],
    ].map(([workerId, otherId]) =>
      spawn(process.execPath, ['--import', 'tsx', CHILD, file, workerId as string, otherId as string], {
        cwd: ROOT,
        stdio: ['pipe', 'pipe', 'inherit'],
      }),
    );
    const outputs = children.map(lines);
    for (const out of outputs) expect((await out.next()).value).toBe('ready');
    for (const child of children) child.stdin?.write('go\n');
    const claimed = await Promise.all(outputs.map(async (out) => JSON.parse((await out.next()).value) as string[]));
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r(null)))));
    expect(children.map((c) => c.exitCode)).toEqual([0, 0]);

    const all = claimed.flat();
    expect(all).toHaveLength(ids.length);
    expect(new Set(all).size).toBe(ids.length);
    expect([...all].sort()).toEqual([...ids].sort());
    // Both processes got work (each waits for the other's first claim): the claims really raced.
    for (const c of claimed) expect(c.length).toBeGreaterThan(0);

    const check = Store.open(file);
    try {
      const rows = check.db.prepare('SELECT status, attempt, worker_id, result FROM jobs').all() as {
        status: string;
        attempt: number;
        worker_id: string;
        result: string;
      }[];
      expect(rows.every((r) => r.status === 'succeeded' && r.attempt === 1 && r.worker_id === r.result)).toBe(true);
      const byWorker = Object.fromEntries(
        ['proc_a', 'proc_b'].map((w) => [w, rows.filter((r) => r.worker_id === w).length]),
      );
      expect(byWorker).toEqual({ proc_a: claimed[0]?.length, proc_b: claimed[1]?.length });
    } finally {
      check.close();
    }
  }, 60_000);
});
