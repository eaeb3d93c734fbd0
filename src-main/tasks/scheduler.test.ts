// The Scheduler: schedules of <dataDir>/schedules.json start tasks through the same validation as POST /tasks, with
// an Invoke Wakeup and a system instruction (P10.01, P9.04); the next run is durable, missed runs fire once, a broken
// file is an error naming the file and the field.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { ConfigFileError } from '../workspace/json-file';
import { loadSchedules, nextRunAfter, SCHEDULES_FILE, Scheduler } from './scheduler';

const HOUR = 3_600_000;

function writeSchedules(dataDir: string, schedules: unknown): void {
  fs.writeFileSync(path.join(dataDir, SCHEDULES_FILE), JSON.stringify({ schedules }));
}

describe('the Scheduler', () => {
  it('P10.01 a due schedule starts a task like POST /tasks, with a Wakeup Invoke and a system instruction', () => {
    const dataDir = tempDir();
    const workspace = tempDir('maestro-ws-');
    writeSchedules(dataDir, [
      { id: 'triage', instruction: 'Triage new issues.', every: '1h', workspacePath: workspace },
    ]);
    const m = testMaestro({ dataDir });
    const t0 = Date.now();
    const scheduler = m.scheduler as Scheduler;
    expect(scheduler.tick(t0)).toEqual([]); // a new schedule first fires one interval from now
    const [taskId] = scheduler.tick(t0 + HOUR + 1);
    if (!taskId) throw new Error('no task started');
    const { task, jobs, comments } = m.invoke('getTask', { taskId });
    expect(task).toMatchObject({ title: 'triage (scheduled)', instruction: 'Triage new issues.' });
    expect(task.workspacePath).toBe(fs.realpathSync(workspace));
    expect(jobs).toEqual([expect.objectContaining({ status: 'queued' })]);
    expect(m.store.jobs.get(jobs[0]?.id as string)?.pendingInvoke).toBe('Wakeup');
    expect(comments).toEqual([expect.objectContaining({ kind: 'instruction', author: 'system' })]);
    expect(m.store.scheduleRuns.get('triage')).toMatchObject({ lastTaskId: taskId, lastError: null });
    // Not again before its next run.
    expect(scheduler.tick(t0 + HOUR + 2)).toEqual([]);
  });

  it('P10.01 the same validation as POST /tasks: a folder that is gone starts nothing and is recorded', () => {
    const dataDir = tempDir();
    writeSchedules(dataDir, [{ id: 'gone', instruction: 'x', every: '15m', workspacePath: '/no/such/folder' }]);
    const warnings: string[] = [];
    const m = testMaestro({ dataDir });
    const scheduler = new Scheduler(m.ctx, loadSchedules(path.join(dataDir, SCHEDULES_FILE)), {
      warn: (w) => warnings.push(w),
    });
    expect(scheduler.tick(Date.now() + HOUR)).toEqual([]);
    expect(m.invoke('listTasks', {}).tasks).toEqual([]);
    expect(m.store.scheduleRuns.get('gone')?.lastError).toMatch(/^workspacePath: \/no\/such\/folder does not exist/);
    expect(warnings).toEqual([expect.stringContaining('schedule gone did not start a task')]);
  });

  it('P10.01 the next run survives a restart; runs missed while closed fire once, then the schedule goes on', async () => {
    const dataDir = tempDir();
    writeSchedules(dataDir, [{ id: 'hourly', instruction: 'Check the build.', every: '1h' }]);
    const first = testMaestro({ dataDir });
    const t0 = Date.now();
    const due = first.store.scheduleRuns.get('hourly')?.nextRunAt as number;
    expect(due).toBeGreaterThanOrEqual(t0 + HOUR - 1000);
    await first.close();

    const second = testMaestro({ dataDir });
    expect(second.store.scheduleRuns.get('hourly')?.nextRunAt).toBe(due); // kept, not recomputed at start
    const later = due + 5 * HOUR; // five runs missed
    expect(second.scheduler?.tick(later)).toHaveLength(1);
    expect(second.scheduler?.tick(later + 1)).toEqual([]);
    expect(second.store.scheduleRuns.get('hourly')?.nextRunAt).toBe(later + HOUR);
  });

  it('P9.04 the scheduled job runs: its Invoke is Wakeup and the instruction is a SystemTurn', async () => {
    const dataDir = tempDir();
    writeSchedules(dataDir, [{ id: 'nightly', instruction: 'Summarise the day.', at: '02:30' }]);
    const h = await engineHarness([complete('Summarised.')], { dataDir });
    const [taskId] = h.maestro.scheduler?.tick(Date.now() + 25 * HOUR) ?? [];
    const jobId = h.maestro.invoke('getTask', { taskId: taskId as string }).jobs[0]?.id as string;
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'succeeded', result: 'Summarised.' });
    const entries = h.maestro.store.logEntries.listForTask(taskId as string);
    expect(entries[0]).toMatchObject({ kind: 'Invoke', invokeKind: 'Wakeup' });
    expect(entries[1]).toMatchObject({ kind: 'SystemTurn' });
    expect(JSON.stringify(entries[1]?.body)).toContain('Summarise the day.');
    expect(entries.some((e) => e.kind === 'UserTurn')).toBe(false);
  });

  it('computes the next run: an interval from now, or the next local HH:MM', () => {
    const at = new Date(2026, 10, 29, 9, 0, 0).getTime(); // 09:00 local
    expect(nextRunAfter({ every: '15m' }, at)).toBe(at + 15 * 60_000);
    expect(nextRunAfter({ every: '2d' }, at)).toBe(at + 2 * 24 * HOUR);
    expect(new Date(nextRunAfter({ at: '09:30' }, at)).getHours()).toBe(9);
    expect(nextRunAfter({ at: '09:30' }, at) - at).toBe(30 * 60_000);
    expect(new Date(nextRunAfter({ at: '08:00' }, at)).getDate()).toBe(30); // already past today: tomorrow
    expect(nextRunAfter({ at: '09:00' }, at)).toBeGreaterThan(at); // exactly now: the next day
  });

  it.each([
    [{ schedules: [{ id: 'a', instruction: 'x' }] }, /schedules\.0\.every: give exactly one of "every" and "at"/],
    [
      { schedules: [{ id: 'a', instruction: 'x', every: '5 minutes' }] },
      /schedules\.0\.every: must be a number and a unit/,
    ],
    [{ schedules: [{ id: 'a', instruction: 'x', at: '25:00' }] }, /schedules\.0\.at: must be a local time/],
    [{ schedules: [{ id: 'a b', instruction: 'x', every: '1h' }] }, /schedules\.0\.id: must be 1–64/],
    [{ schedules: [{ id: 'a', instruction: ' ', every: '1h' }] }, /schedules\.0\.instruction: must not be empty/],
    [
      {
        schedules: [
          { id: 'a', instruction: 'x', every: '1h' },
          { id: 'a', instruction: 'y', every: '2h' },
        ],
      },
      /schedules: each schedule needs its own id/,
    ],
    [{ schedules: [], extra: 1 }, /Unrecognized key/],
  ])('a broken schedules.json is an error naming the file and the field (%#)', (content, message) => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, SCHEDULES_FILE), JSON.stringify(content));
    const file = path.join(dataDir, SCHEDULES_FILE);
    expect(() => loadSchedules(file)).toThrow(ConfigFileError);
    expect(() => loadSchedules(file)).toThrow(message);
    expect(() => loadSchedules(file)).toThrow(file);
    // The app still starts, without a Scheduler.
    expect(testMaestro({ dataDir }).scheduler).toBeNull();
  });
});
