// Renaming, archiving and deleting tasks over the real HTTP bridge on a real SQLite file: a delete takes the task, its
// subtasks, every row of theirs and their runtime dirs, and is refused while a job of theirs runs.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { expectErrorShape } from '../../test-support/bridge-fixtures';
import { testBridge } from '../../test-support/bridge-harness';
import { insertChildJob, moveTo } from '../../test-support/tasks';
import { transcriptOf } from '../../test-support/transcript-lines';
import { jsonValues } from '../db/sql';
import { ephemeralWorkspace, runtimeDir } from '../workspace/paths';

const TABLES = ['tasks', 'jobs', 'comments', 'tool_requests', 'package_requests', 'log_entries', 'events'] as const;

async function setup() {
  const b = await testBridge();
  const { store } = b.maestro;
  const events: MaestroEvent[] = [];
  store.subscribe((e) => events.push(e));
  const attachment = { name: 'notes.txt', mediaType: 'text/plain', data: Buffer.from('hello').toString('base64') };
  const create = (instruction: string) => b.maestro.invoke('createTask', { instruction, attachments: [attachment] });
  /** Rows of `table` that belong to one of `taskIds`. */
  const rowsOf = (table: (typeof TABLES)[number], taskIds: string[]) =>
    (
      store.db
        .prepare(
          `SELECT count(*) AS n FROM ${table} WHERE ${table === 'tasks' ? 'id' : 'task_id'} IN (SELECT value FROM ${jsonValues(store.dialect, '?')})`,
        )
        .get(JSON.stringify(taskIds)) as { n: number }
    ).n;
  return { b, store, events, create, rowsOf };
}

describe('deleteTask', () => {
  it('removes the task and its subtask with their jobs, comments, requests, log, events and runtime dirs; other tasks stay', async () => {
    const { b, store, events, create, rowsOf } = await setup();
    const { task, job } = create('Parent work');
    const other = create('Someone else’s work');
    moveTo(store, job.id, 'waiting_human', { waitReason: 'tool_request', toolRequests: 1, packageRequests: 1 });
    const child = insertChildJob(store, task.id, job.id);
    store.comments.insert({ taskId: child.taskId, jobId: child.id, author: 'agent', kind: 'instruction', body: 'sub' });
    const log = store.db.prepare(
      `INSERT INTO log_entries (task_id, job_id, kind, ts, invoke_kind) VALUES (?, ?, 'Invoke', 1, 'UserSend')`,
    );
    log.run(task.id, job.id);
    log.run(child.taskId, child.id);
    log.run(other.task.id, other.job.id);
    store.db
      .prepare('INSERT INTO schedule_runs (schedule_id, next_run_at, last_task_id) VALUES (?, 9, ?)')
      .run('nightly', task.id);
    const dataDir = b.maestro.ctx.dataDir;
    // Its transcript where the Maestro keeps it: the runtime dir's file, or rows of a shared database.
    transcriptOf(b.maestro, task.id).replace('{}\n');
    transcriptOf(b.maestro, other.task.id).replace('{"other":1}\n');
    fs.mkdirSync(runtimeDir(dataDir, child.taskId), { recursive: true });
    const ids = [task.id, child.taskId];
    for (const table of TABLES) expect(rowsOf(table, ids), table).toBeGreaterThan(0);
    expect(fs.existsSync(ephemeralWorkspace(dataDir, task.id))).toBe(true);
    const otherBefore = TABLES.map((table) => rowsOf(table, [other.task.id]));
    events.length = 0;

    const res = await b.api('DELETE', `/tasks/${task.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ deletedTaskIds: ids });

    for (const table of TABLES.filter((t) => t !== 'events')) expect(rowsOf(table, ids), table).toBe(0);
    // What is left of them is the record that they were deleted, for windows that reconnect.
    expect(store.db.prepare('SELECT type, task_id FROM events WHERE task_id IN (?, ?)').all(...ids)).toEqual([
      { type: 'task.deleted', task_id: task.id },
    ]);
    expect(events.map((e) => e.type)).toEqual(['task.deleted']);
    expect(events[0]).toMatchObject({ type: 'task.deleted', taskId: task.id, taskIds: ids });
    expect(store.db.prepare('SELECT last_task_id FROM schedule_runs').all()).toEqual([{ last_task_id: null }]);
    for (const id of ids) expect(fs.existsSync(runtimeDir(dataDir, id)), id).toBe(false);
    expect(transcriptOf(b.maestro, task.id).read()).toBe('');
    expect(transcriptOf(b.maestro, other.task.id).read()).toBe('{"other":1}\n');
    expect(fs.existsSync(ephemeralWorkspace(dataDir, task.id))).toBe(false);

    expect(TABLES.map((table) => rowsOf(table, [other.task.id]))).toEqual(otherBefore);
    expect(fs.existsSync(path.join(runtimeDir(dataDir, other.task.id), 'attachments', 'notes.txt'))).toBe(true);
    expect((await b.api('GET', '/tasks')).json.tasks.map((t: { id: string }) => t.id)).toEqual([other.task.id]);
    expectErrorShape(await b.api('GET', `/tasks/${task.id}`), 404, 'not_found');
    expectErrorShape(await b.api('DELETE', `/tasks/${task.id}`), 404, 'not_found');
  });

  it.each([
    ['its own', false],
    ['a subtask’s', true],
  ])('with %s job running → 409 naming the job, and nothing is removed', async (_, inChild) => {
    const { b, store, create, rowsOf } = await setup();
    const { task, job } = create('Busy');
    const child = insertChildJob(store, task.id, job.id);
    const running = inChild ? child : job;
    moveTo(store, running.id, 'running');
    const ids = [task.id, child.taskId];
    const before = TABLES.map((table) => rowsOf(table, ids));

    const res = await b.api('DELETE', `/tasks/${task.id}`);
    expectErrorShape(res, 409, 'conflict');
    expect(res.json.error.message).toContain(running.id);
    expect(res.json.error.message).toMatch(/running job .*cancel it first/);
    expect(TABLES.map((table) => rowsOf(table, ids))).toEqual(before);
    expect(fs.existsSync(runtimeDir(b.maestro.ctx.dataDir, task.id))).toBe(true);
  });

  it('deleting the last open subtask a parent waits for wakes the parent (queued, Invoke Notify)', async () => {
    const { b, store, create } = await setup();
    const { task, job } = create('Waits for its child');
    moveTo(store, job.id, 'waiting_subtasks');
    const child = insertChildJob(store, task.id, job.id);

    expect((await b.api('DELETE', `/tasks/${child.taskId}`)).status).toBe(200);
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'queued', pendingInvoke: 'Notify' });
    expect(store.tasks.get(task.id)).toBeDefined();
  });
});

describe('renameTask', () => {
  it('PATCH /tasks/:id sets the trimmed title and publishes task.changed', async () => {
    const { b, events, create } = await setup();
    const { task } = create('Old name');
    events.length = 0;

    const res = await b.api('PATCH', `/tasks/${task.id}`, { title: '  A better name ' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.task).toMatchObject({ id: task.id, title: 'A better name', instruction: 'Old name' });
    expect((await b.api('GET', `/tasks/${task.id}`)).json.task.title).toBe('A better name');
    expect(events).toMatchObject([{ type: 'task.changed', taskId: task.id, task: { title: 'A better name' } }]);
  });

  it.each([
    [{ title: '   ' }, 'title'],
    [{ title: 'x'.repeat(201) }, 'title'],
    [{}, 'title'],
    [{ title: 'ok', status: 'done' }, 'status'],
  ])('refuses %j with 400 naming %s, and changes nothing', async (body, field) => {
    const { b, create } = await setup();
    const { task } = create('Keep me');
    const res = await b.api('PATCH', `/tasks/${task.id}`, body);
    expectErrorShape(res, 400, 'invalid_input');
    expect(res.json.error.message).toContain(field);
    expect(JSON.stringify(res.json.error.issues)).toContain(field);
    expect(b.maestro.store.tasks.get(task.id)?.title).toBe('Keep me');
  });

  it('an unknown task → 404', async () => {
    const { b } = await setup();
    expectErrorShape(await b.api('PATCH', '/tasks/task_nope', { title: 'x' }), 404, 'not_found');
  });
});

describe('archiveTask', () => {
  it('archives the task with its subtasks and brings them back, publishing task.changed for each', async () => {
    const { b, store, events, create } = await setup();
    const { task, job } = create('Old work');
    const child = insertChildJob(store, task.id, job.id);
    const other = create('Current work');
    events.length = 0;

    const archived = await b.api('POST', `/tasks/${task.id}/archive`, { archived: true });
    expect(archived.status, archived.text).toBe(200);
    expect(archived.json.tasks.map((t: { id: string }) => t.id)).toEqual([task.id, child.taskId]);
    for (const t of archived.json.tasks) expect(Date.parse(t.archivedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(store.tasks.get(other.task.id)?.archivedAt).toBeNull();
    expect(events.map((e) => [e.type, e.taskId])).toEqual([
      ['task.changed', task.id],
      ['task.changed', child.taskId],
    ]);

    const back = await b.api('POST', `/tasks/${task.id}/archive`, { archived: false });
    expect(back.json.tasks.map((t: { archivedAt: string | null }) => t.archivedAt)).toEqual([null, null]);
    expect(store.tasks.get(child.taskId)?.archivedAt).toBeNull();
  });

  it('refuses a non-boolean with 400 naming archived', async () => {
    const { b, create } = await setup();
    const { task } = create('Work');
    const res = await b.api('POST', `/tasks/${task.id}/archive`, { archived: 'yes' });
    expectErrorShape(res, 400, 'invalid_input');
    expect(res.json.error.issues).toEqual([expect.objectContaining({ path: ['archived'] })]);
    expect(b.maestro.store.tasks.get(task.id)?.archivedAt).toBeNull();
  });
});
