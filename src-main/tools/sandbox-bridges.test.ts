// The sandbox's network bridges (socat, started by the library in the host's process) end with the host however it
// ends: SIGTERM, and SIGKILL, where no handler of the host runs (issue 27: each host left its bridges running).
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxUnavailableReason } from './os-sandbox';

const ROOT = path.resolve(__dirname, '..', '..');
const CHILD = path.join(ROOT, 'test-support', 'sandbox-host-child.ts');

/** The socat processes whose parent is `pid` (read from /proc). */
function socatChildren(pid: number): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // comm is in parentheses and may hold spaces: the fields after the last ')' are state, ppid, …
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (comm === 'socat' && ppid === pid) found.push(Number(entry));
    } catch {
      // The process ended while the folder was read.
    }
  }
  return found;
}

const alive = (pid: number) => fs.existsSync(`/proc/${pid}`) && !/\) Z /.test(safeStat(pid));
function safeStat(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function startHostWithBridges(): Promise<{ child: ChildProcess; bridges: number[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const ready = await until(() => output.includes('ready') || child.exitCode !== null, 30_000);
  if (!ready || !output.includes('ready')) throw new Error(`the child did not start its sandbox: ${output}`);
  const pid = child.pid as number;
  const bridges = socatChildren(pid);
  return { child, bridges };
}

describe.skipIf(process.platform !== 'linux' || sandboxUnavailableReason() !== null)('sandbox bridges', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`end when the host that started them gets ${signal}`, async () => {
      const { child, bridges } = await startHostWithBridges();
      // The library starts one bridge (HTTP and SOCKS share a proxy port) or two.
      expect(bridges.length).toBeGreaterThanOrEqual(1);
      expect(bridges.every(alive)).toBe(true);
      child.kill(signal);
      expect(await until(() => !bridges.some(alive), 5_000)).toBe(true);
    }, 60_000);
  }
});
