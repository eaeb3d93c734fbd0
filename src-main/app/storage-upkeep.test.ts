// Storage in bounds (issue 28 point 4), through real jobs on a real SQLite file: retention drops only what a finished
// task's log holds twice, so its chat and its activity read the same after; a task still waiting keeps everything; a
// pass cut off by a fault leaves each task compacted or whole; freed pages and the WAL go back to the file system.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { testBridge } from '../../test-support/bridge-harness';
import { call, complete, engineHarness } from '../../test-support/engine-harness';
import { tempDir } from '../../test-support/temp-maestro';
import { openDatabase } from '../db/connection';
import { Store } from '../db/store';
import { SAFETY_NET_FRAMES } from '../db/wal-checkpointer';
import type { Maestro } from './create-maestro';
import { saveSettings } from './settings-operations';
import { StorageUpkeep } from './storage-upkeep';

const DAY = 24 * 3600 * 1000;

async function finishedAndWaiting() {
  const h = await engineHarness([
    { text: 'Looking at it.', ...complete('Two files.') },
    complete('Which branch?', 'needs_user_input'),
    complete('Merged main.'),
    call('complete', { status: 'success', message: 'Done, third.' }),
  ]);
  const m = h.maestro;
  const first = await m.invoke('runTask', { instruction: 'How many files are there?' });
  const asked = await m.invoke('runTask', { instruction: 'Merge it' });
  expect(asked.job.status).toBe('waiting_human');
  // The person answers; the task's second job succeeds (two jobs, each with several states).
  m.invoke('addComment', { taskId: asked.task.id, body: 'main' });
  await waitSettled(m, asked.task.id);
  const third = await m.invoke('runTask', { instruction: 'One more' });
  const waiting = m.invoke('createTask', { instruction: 'Still queued', pieceId: 'default' });
  return { h, m, finished: [first.task.id, asked.task.id, third.task.id], waiting: waiting.task.id };
}

async function waitSettled(m: Maestro, taskId: string) {
  for (let i = 0; i < 500; i++) {
    const jobs = m.store.jobs.listForTask(taskId);
    if (jobs.length > 0 && jobs.every((j) => ['succeeded', 'failed', 'cancelled'].includes(j.status))) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} did not settle`);
}

const logOf = (m: Maestro, taskId: string) => m.store.events.since(0, taskId, 100_000);
const typesOf = (events: readonly MaestroEvent[]) => events.map((e) => e.type);
/** What the activity timeline shows: each event without the seq/ts a rebuilt row cannot carry over. */
const activityOf = (m: Maestro, taskId: string) =>
  m
    .invoke('listTaskEvents', { taskId })
    .events.filter((e) => e.type === 'comment.created')
    .map((e) => (e.type === 'comment.created' ? e.comment : null));

describe('storage upkeep: retention of finished tasks (issue 28 point 4)', () => {
  it("keeps a finished task's chat whole and its activity's comments, drops superseded states, and leaves a waiting task alone", async () => {
    const { m, finished, waiting } = await finishedAndWaiting();
    // The Worker is stopped first: the still-queued task stays queued.
    await m.worker?.stop();
    const chats = finished.map((taskId) => m.invoke('getTaskRecent', { taskId }));
    const comments = finished.map((taskId) => activityOf(m, taskId));
    const waitingLog = logOf(m, waiting);
    const before = finished.map((taskId) => logOf(m, taskId));
    expect(before.every((log) => typesOf(log).filter((t) => t === 'job.changed').length >= 3)).toBe(true);

    // Not yet past the 30 days: nothing goes.
    expect(await m.ctx.upkeep.run(Date.now() + 29 * DAY)).toEqual({ tasks: 0, events: 0 });
    expect(finished.map((taskId) => logOf(m, taskId))).toEqual(before);

    const result = await m.ctx.upkeep.run(Date.now() + 31 * DAY);
    expect(result.tasks).toBe(3);
    expect(result.events).toBeGreaterThan(0);

    finished.forEach((taskId, i) => {
      // What a person opens is what it was.
      expect(m.invoke('getTaskRecent', { taskId })).toEqual(chats[i]);
      expect(activityOf(m, taskId)).toEqual(comments[i]);
      const log = logOf(m, taskId);
      // One state per job (its last, with the final job), no comment copies, the last title change, the rest as it was.
      const jobs = m.store.jobs.listForTask(taskId);
      const states = log.filter((e) => e.type === 'job.changed');
      expect(states.map((e) => (e.type === 'job.changed' ? e.job : null))).toEqual(
        jobs.map((j) => expect.objectContaining({ id: j.id, status: j.status, result: j.result })),
      );
      expect(typesOf(log)).not.toContain('comment.created');
      expect(typesOf(log).filter((t) => t === 'task.changed').length).toBeLessThanOrEqual(1);
      const kept = (before[i] ?? []).filter(
        (e) => !['job.changed', 'comment.created', 'task.changed'].includes(e.type),
      );
      expect(log.filter((e) => !['job.changed', 'task.changed'].includes(e.type))).toEqual(kept);
    });
    expect(logOf(m, waiting)).toEqual(waitingLog);
    // A second pass has nothing left to do.
    expect(await m.ctx.upkeep.run(Date.now() + 31 * DAY)).toEqual({ tasks: 0, events: 0 });
  });

  it('keeps everything when Settings says 0 days', async () => {
    const { m, finished } = await finishedAndWaiting();
    await m.worker?.stop();
    const view = m.invoke('getSettings', {});
    saveSettings(m.ctx, { ...view.settings, retention: { activityDays: 0 } });
    const before = finished.map((taskId) => logOf(m, taskId));
    expect(await m.ctx.upkeep.run(Date.now() + 3650 * DAY)).toEqual({ tasks: 0, events: 0 });
    expect(finished.map((taskId) => logOf(m, taskId))).toEqual(before);
  });

  it('a pass cut off by a fault leaves the task it was on whole, the ones before it compacted, and finishes on the next pass', async () => {
    const { m, finished } = await finishedAndWaiting();
    await m.worker?.stop();
    const [a, b, c] = [...finished].sort();
    const beforeB = logOf(m, b as string);
    // The disk "fails" on b's last statement, after its job.changed rows were deleted in the same transaction.
    m.store.db.exec(`CREATE TEMP TRIGGER fail_b BEFORE DELETE ON main.events
      WHEN old.task_id = '${b}' AND old.type = 'comment.created' BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`);
    await expect(m.ctx.upkeep.run(Date.now() + 31 * DAY)).rejects.toThrow(/disk I\/O error/);
    expect(logOf(m, b as string)).toEqual(beforeB);
    expect(typesOf(logOf(m, a as string))).not.toContain('comment.created');
    expect(typesOf(logOf(m, c as string))).toContain('comment.created');

    m.store.db.exec('DROP TRIGGER fail_b');
    expect(await m.ctx.upkeep.run(Date.now() + 31 * DAY)).toMatchObject({ tasks: 2 });
    for (const taskId of [b, c]) expect(typesOf(logOf(m, taskId as string))).not.toContain('comment.created');
  });
});

describe('storage upkeep: the file itself', () => {
  it('a new database gives freed pages back (incremental vacuum); the upkeep truncates the WAL when no job runs', async () => {
    const { m, finished } = await finishedAndWaiting();
    await m.worker?.stop();
    expect(m.store.sqlite?.pragma('auto_vacuum', { simple: true })).toBe(2);
    // The host's own connection leaves the WAL checkpoints to their thread (db/wal-checkpointer.ts).
    expect(m.store.sqlite?.pragma('wal_autocheckpoint', { simple: true })).toBe(SAFETY_NET_FRAMES);
    // Deleting a task frees pages; the pass gives them back and cuts the WAL to nothing.
    m.invoke('deleteTask', { taskId: finished[0] as string });
    const file = path.join(m.ctx.dataDir, 'maestro.db');
    expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(0);
    await m.ctx.upkeep.run();
    const usage = await m.ctx.upkeep.usage();
    expect(usage).toMatchObject({ free: 0, wal: 0, tasks: 3 });
    expect(usage.database).toBe(fs.statSync(file).size);
    expect(usage.runs).toBeGreaterThan(0);
    expect(usage.total).toBe(usage.database + usage.wal + usage.runs + usage.checkpoints);
  });

  it('an older file without incremental vacuum is converted by a clean-up a person asked for, keeping every row', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'maestro.db');
    // A file whose first page was written before auto_vacuum was set, as every file made by earlier versions.
    const raw = new Database(file);
    raw.exec('CREATE TABLE before_upgrade (a); DROP TABLE before_upgrade;');
    raw.close();
    const store = new Store(openDatabase(file));
    try {
      expect(store.sqlite?.pragma('auto_vacuum', { simple: true })).toBe(0);
      store.db.exec(`INSERT INTO tasks (id, title, instruction, piece_id, workspace_path, workspace_kind, created_at)
        VALUES ('t1', 'kept', 'i', 'default', '${dir}', 'persistent', 1)`);
      const upkeep = new StorageUpkeep(store, dir, file, () => ({ activityDays: 30 }));
      // Not by the passes of an idle host: VACUUM holds the event loop for the whole file.
      await upkeep.run();
      expect(store.sqlite?.pragma('auto_vacuum', { simple: true })).toBe(0);
      await upkeep.run(Date.now(), { convert: true });
      expect(store.sqlite?.pragma('auto_vacuum', { simple: true })).toBe(2);
      expect(store.tasks.get('t1')?.title).toBe('kept');
    } finally {
      store.close();
    }
  });

  it('over HTTP: the owner sees the usage and cleans up; bad input is a 400', async () => {
    const b = await testBridge();
    const usage = await b.api('GET', '/storage');
    expect(usage.status).toBe(200);
    expect(usage.json).toMatchObject({ dataDir: b.maestro.ctx.dataDir, tasks: 0 });
    const cleaned = await b.api('POST', '/storage/clean-up', {});
    expect(cleaned.status).toBe(200);
    expect(cleaned.json).toMatchObject({ tasks: 0, events: 0, after: { wal: 0, free: 0 } });
    const bad = await b.api('POST', '/storage/clean-up', { all: true });
    expect(bad.status).toBe(400);
  });
});
