// runProcess against real processes: a command dies with its host (SIGKILL of the host included), its exit code and
// signal come through the watchdog unchanged, and a program that does not exist is a spawn error, not exit 127.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { runProcess } from './process-run';

const ROOT = path.resolve(__dirname, '..', '..');
const HOST = path.join(__dirname, 'process-run-host.child.ts');

/** Process groups a test started: none may outlive it, whatever it asserted. */
const groups = new Set<number>();
afterEach(() => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // gone, as it should be
    }
  }
  groups.clear();
});

/** The processes of a group that still run (a zombie nobody reaps is dead: this sandbox's init does not reap). */
function liveMembers(pgid: number): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      // pid (comm) state ppid pgrp …: comm may hold spaces, so the fields are read after its closing parenthesis.
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(pgrp) === pgid && state !== 'Z' ? [Number(entry)] : [];
    } catch {
      return []; // ended while we looked
    }
  });
}
const groupAlive = (pgid: number) => liveMembers(pgid).length > 0;

/**
 * Starts a host process running a command that records its process group, then starts a grandchild in the
 * background, and after 2 s writes `late` (and the grandchild `late-bg`); SIGKILLs the host once the group exists.
 */
async function killHostWhileItRuns(dieWithHost: boolean) {
  const dir = tempDir();
  const command = 'echo $$ > pgid; (sleep 2; echo bg > late-bg) & sleep 2; echo done > late';
  const host = spawn(process.execPath, ['--import', 'tsx', HOST, dir, dieWithHost ? 'yes' : 'no', command], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => host.on('exit', (_code, signal) => resolve(signal)));
  const pgidFile = path.join(dir, 'pgid');
  await expect
    .poll(() => fs.existsSync(pgidFile) && fs.readFileSync(pgidFile, 'utf8').endsWith('\n'), {
      timeout: 20_000,
      interval: 10,
    })
    .toBe(true);
  const pgid = Number(fs.readFileSync(pgidFile, 'utf8'));
  groups.add(pgid);
  expect(groupAlive(pgid)).toBe(true);
  host.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  return { dir, pgid };
}

// Reads process groups from /proc.
describe.skipIf(process.platform !== 'linux')('runProcess', { timeout: 60_000 }, () => {
  it('SIGKILL of the host while a command runs: the whole group dies with it, the late writes never happen', async () => {
    const { dir, pgid } = await killHostWhileItRuns(true);
    await expect.poll(() => groupAlive(pgid), { timeout: 1000, interval: 10 }).toBe(false);
    await sleep(2500); // past the moment the command and its grandchild would have written
    expect(fs.existsSync(path.join(dir, 'late'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'late-bg'))).toBe(false);
    expect(groupAlive(pgid)).toBe(false);
  });

  it('without dieWithHost the same command outlives its host and writes (what the watchdog prevents)', async () => {
    const { dir, pgid } = await killHostWhileItRuns(false);
    await expect.poll(() => fs.existsSync(path.join(dir, 'late')), { timeout: 5000, interval: 20 }).toBe(true);
    await expect.poll(() => fs.existsSync(path.join(dir, 'late-bg')), { timeout: 5000, interval: 20 }).toBe(true);
    // Each exits right after its write; on a loaded machine a moment after the file appears.
    await expect.poll(() => groupAlive(pgid), { timeout: 5000, interval: 20 }).toBe(false);
  });

  it('the watchdog is invisible to the command: exit codes, signals, stdin, arguments and fds are its own', async () => {
    const cwd = tempDir();
    const base = { cwd, env: process.env, timeoutMs: 10_000 };
    const exit = await runProcess({ ...base, file: '/bin/sh', args: ['-c', 'read x || echo "stdin empty"; exit 7'] });
    expect(exit).toMatchObject({ exitCode: 7, exitSignal: null, output: 'stdin empty\n' });
    const signal = await runProcess({ ...base, file: '/bin/sh', args: ['-c', 'kill -TERM $$'] });
    expect(signal).toMatchObject({ exitCode: null, exitSignal: 'SIGTERM' });
    const args = await runProcess({ ...base, file: 'printf', args: ['[%s]', 'a b', '$HOME', ''] });
    expect(args).toMatchObject({ exitCode: 0, output: '[a b][$HOME][]' });
    // Only stdin, stdout and stderr: the watchdog's socket (fd 3) is not the command's to hold or write to.
    const fds = await runProcess({
      ...base,
      file: '/bin/sh',
      args: ['-c', 'for f in 3 4 5; do [ -e /dev/fd/$f ] && echo "fd $f open"; done; true'],
    });
    expect(fds).toMatchObject({ exitCode: 0, output: '' });
  });

  it('a program that is not on PATH is a spawn error (ENOENT), as without the watchdog; a path that is not there too', async () => {
    const cwd = tempDir();
    for (const file of ['maestro-no-such-program', './missing.sh']) {
      const r = await runProcess({ file, args: [], cwd, env: process.env, timeoutMs: 10_000 });
      expect(r.spawnError?.code).toBe('ENOENT');
      expect(r.spawnError?.message).toContain(file);
      expect(r.exitCode).toBeNull();
    }
  });

  it('a command that ends normally leaves no watcher behind, and a background job that let go of the output keeps running', async () => {
    const cwd = tempDir();
    const r = await runProcess({
      file: '/bin/sh',
      args: ['-c', 'echo $$ > pgid; sleep 3 >/dev/null 2>&1 & echo $! > bg'],
      cwd,
      env: process.env,
      timeoutMs: 10_000,
    });
    expect(r.exitCode).toBe(0);
    const pgid = Number(fs.readFileSync(path.join(cwd, 'pgid'), 'utf8'));
    groups.add(pgid);
    const bg = Number(fs.readFileSync(path.join(cwd, 'bg'), 'utf8'));
    await sleep(200);
    const members = liveMembers(pgid);
    expect(members).toEqual([bg]);
  });
});
