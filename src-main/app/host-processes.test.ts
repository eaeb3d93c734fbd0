// No leaked processes (issue 27 point 6): everything a real headless host starts for a job — the job's stdio MCP
// server, a command running in the OS sandbox (bubblewrap, with the network bridges the library starts) — ends when
// the host ends, by SIGTERM (its handlers run) and by SIGKILL (none runs: what is left must go by itself). Counted
// from /proc: every descendant of the host while the job runs, then each of them checked gone.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../test-support/engine-harness';
import { type HostProcess, startHostProcess } from '../../test-support/headless-process';
import { stdioServerEntry, writeMcpConfig } from '../../test-support/mcp-fixtures';
import { type ScriptedLlmServer, startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';
import { sandboxUnavailableReason } from '../tools/os-sandbox';
import { AcceptedSettings, SETTINGS_FILES } from '../workspace/accepted-settings';

/** A process as /proc names it: its pid with its start time (a pid reused by another process is not it). */
interface Proc {
  pid: number;
  ppid: number;
  start: string;
  cmd: string;
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue; // ended, waiting to be reaped
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      found.push({ pid: Number(entry), ppid: Number(fields[1]), start: fields[19] as string, cmd });
    } catch {
      // ended while the folder was read
    }
  }
  return found;
}

/** Every process below `pid`, at any depth. */
function descendants(pid: number): Proc[] {
  const all = processes();
  const below: Proc[] = [];
  const walk = (parent: number) => {
    for (const p of all.filter((q) => q.ppid === parent)) {
      below.push(p);
      walk(p.pid);
    }
  };
  walk(pid);
  return below;
}

const stillRunning = (procs: readonly Proc[]) => {
  const now = processes();
  return procs.filter((p) => now.some((q) => q.pid === p.pid && q.start === p.start));
};

async function until<T>(get: () => T, done: (value: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let value = get();
  while (!done(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    value = get();
  }
  return value;
}

let server: ScriptedLlmServer;
let host: HostProcess | null = null;
beforeEach(async () => {
  server = await startScriptedLlmServer();
});
afterEach(async () => {
  host?.child.kill('SIGKILL');
  host = null;
  await server.close();
});

/** A host whose one job runs `sleep 417` in the sandbox while its workspace's stdio MCP server is up. */
async function hostWithBusyJob(): Promise<{ host: HostProcess; tree: Proc[] }> {
  const dataDir = tempDir();
  const workspace = fs.realpathSync(tempDir('maestro-ws-'));
  fs.mkdirSync(path.join(workspace, '.maestro'));
  fs.writeFileSync(path.join(workspace, SETTINGS_FILES.policy), JSON.stringify({ tools: { allow: ['run_command'] } }));
  // The pid file in the workspace: the sandboxed server cannot write to the data dir. Its code is in this checkout,
  // which the sandbox hides where the checkout is below /tmp or the home folder: made readable, as a person would.
  writeMcpConfig(workspace, {
    probe: stdioServerEntry(path.join(workspace, 'mcp-pids'), { readable: [path.resolve(__dirname, '..', '..')] }),
  });
  const accepted = new AcceptedSettings(dataDir);
  for (const change of accepted.changes(workspace)) accepted.record(workspace, change.file, change.current);

  server.push(call('run_command', { command: 'sleep 417', timeout_ms: 600_000 }));
  const started = await startHostProcess(dataDir, workspace, {
    MAESTRO_LLM_BASE_URL: server.baseURL,
    MAESTRO_LLM_MODEL: 'scripted',
    MAESTRO_LLM_API_KEY: 'sk-test',
  });
  host = started;
  const created = await started.call('POST', '/tasks', { instruction: 'Wait a while.', title: 'busy' });
  expect(created.status).toBe(201);
  // The job's command and its MCP server are both running under the host.
  const tree = await until(
    () => descendants(started.child.pid as number),
    (procs) =>
      procs.some((p) => /(^| )sleep 417$/.test(p.cmd)) && procs.some((p) => p.cmd.includes('mcp-stdio-server')),
    30_000,
  );
  expect(
    tree.some((p) => /(^| )sleep 417$/.test(p.cmd)),
    started.output(),
  ).toBe(true);
  expect(
    tree.some((p) => p.cmd.includes('mcp-stdio-server')),
    `${started.output()}\n${tree.map((p) => p.cmd).join('\n')}`,
  ).toBe(true);
  return { host: started, tree };
}

describe.skipIf(process.platform !== 'linux' || sandboxUnavailableReason() !== null)(
  'the processes a host starts end with it (issue 27 point 6)',
  { timeout: 90_000 },
  () => {
    for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
      it(`${signal}: the job's sandboxed command, its bridges and its MCP server are all gone`, async () => {
        const { host: running, tree } = await hostWithBusyJob();
        expect(tree.length).toBeGreaterThanOrEqual(3);
        running.child.kill(signal);
        await running.exited;
        const left = await until(
          () => stillRunning(tree),
          (procs) => procs.length === 0,
          10_000,
        );
        expect(left.map((p) => `${p.pid} ${p.cmd}`)).toEqual([]);
      });
    }
  },
);
