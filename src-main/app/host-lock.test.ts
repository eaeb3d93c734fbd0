// The data dir's host lock: one holder at a time, a dead holder's lock taken over at once, the file 0600 and removed
// by its holder only.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { acquireHostLock, DataDirLockedError, HOST_LOCK_FILE } from './host-lock';

/** The pid of a process that has ended (and been reaped): no process has it, for now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid as number;
}

describe('the host lock', () => {
  it('is a 0600 file holding pid and start time; a second taker gets an error naming the holder; release frees it', () => {
    const dataDir = tempDir();
    const lock = acquireHostLock(dataDir, () => new Date('2026-12-01T10:00:00.000Z'));
    const file = path.join(dataDir, HOST_LOCK_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      pid: process.pid,
      startedAt: '2026-12-01T10:00:00.000Z',
    });

    expect(() => acquireHostLock(dataDir)).toThrow(DataDirLockedError);
    expect(() => acquireHostLock(dataDir)).toThrow(
      `the data dir ${dataDir} is in use by another MAESTRO (pid ${process.pid}, started 2026-12-01T10:00:00.000Z)`,
    );
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
    acquireHostLock(dataDir).release();
  });

  it('a lock left by a live process of another pid is respected', () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, HOST_LOCK_FILE);
    // The test's parent (vitest's main process) is alive for sure.
    fs.writeFileSync(file, JSON.stringify({ pid: process.ppid, startedAt: 'earlier' }));
    expect(() => acquireHostLock(dataDir)).toThrow(
      expect.objectContaining({ code: 'data_dir_locked', holder: { pid: process.ppid, startedAt: 'earlier' } }),
    );
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).pid).toBe(process.ppid);
  });

  it('a lock left by a dead process, by an earlier process with our pid, or torn, is taken over at once', async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, HOST_LOCK_FILE);
    for (const left of [
      JSON.stringify({ pid: await deadPid(), startedAt: 'before the crash' }),
      JSON.stringify({ pid: process.pid, startedAt: 'before a reboot that gave us the same pid' }),
      '{"pid": 12',
      '',
    ]) {
      fs.writeFileSync(file, left);
      const started = Date.now();
      const lock = acquireHostLock(dataDir);
      expect(Date.now() - started).toBeLessThan(100);
      expect(JSON.parse(fs.readFileSync(file, 'utf8')).pid).toBe(process.pid);
      lock.release();
    }
  });

  it('release leaves a lock that is no longer ours in place', () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, HOST_LOCK_FILE);
    const lock = acquireHostLock(dataDir);
    fs.writeFileSync(file, JSON.stringify({ pid: process.ppid, startedAt: 'someone else' }));
    lock.release();
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).startedAt).toBe('someone else');
  });

  it('createMaestro takes it: a second Maestro on the same data dir refuses, and may start once the first closed', async () => {
    const dataDir = tempDir();
    const first = testMaestro({ dataDir });
    expect(() => testMaestro({ dataDir })).toThrow(DataDirLockedError);
    expect(() => testMaestro({ dataDir })).toThrow(`pid ${process.pid}`);
    expect(first.invoke('listTasks', {}).tasks).toEqual([]); // the refused one left the first working
    await first.close();
    expect(fs.existsSync(path.join(dataDir, HOST_LOCK_FILE))).toBe(false);
    const second = testMaestro({ dataDir });
    await second.close();
  });
});
