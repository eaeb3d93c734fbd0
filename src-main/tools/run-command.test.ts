import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DECLARED_SANDBOX,
  dispatchCall,
  machineSandbox,
  tempWorkspace,
  text,
  withoutSandbox,
} from '../../test-support/tools';
import { DEFAULT_POLICY, type WorkspaceToolPolicy } from './policy-schema';
import {
  allowedWithoutApproval,
  commandMatchesRule,
  RUN_HEAD_CHARS,
  RUN_TAIL_CHARS,
  runCommandTool,
} from './run-command';

const policy = (...allow: string[]): WorkspaceToolPolicy => ({ ...DEFAULT_POLICY, runCommandAllow: allow });
const asking = runCommandTool(DEFAULT_POLICY);
/** Running, as opposed to gone or a zombie waiting for init to reap it. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return true;
  }
};
/** The process whose id the command wrote to `file` is gone (polled, up to 2 s). */
const expectGone = (file: string) => {
  const pid = Number(fs.readFileSync(file, 'utf8'));
  return expect.poll(() => alive(pid), { timeout: 2000, interval: 20 }).toBe(false);
};

describe('run_command: asking (P4.34)', () => {
  it('by default parks with a tool request whose summary (and display, for the UI to word) shows the exact command, cwd and timeout', async () => {
    const t = tempWorkspace();
    fs.mkdirSync(path.join(t.ws, 'pkg'));
    expect(await dispatchCall(asking, { command: 'npm test' }, t.ctx({ sandbox: DECLARED_SANDBOX }))).toEqual({
      kind: 'wait',
      toolRequest: {
        tool: 'run_command',
        args: { command: 'npm test' },
        summary: '$ npm test\n(runs in the workspace folder; stopped after 120 s)',
        display: { kind: 'command', command: 'npm test', cwd: '.', timeoutMs: 120_000, network: [], unsandboxed: null },
        grantOptions: { target: { kind: 'command', value: 'npm test' }, prefixes: ['npm test *'] },
      },
    });
    const outside = await dispatchCall(
      asking,
      { command: 'ls', outside_sandbox: true },
      t.ctx({ sandbox: DECLARED_SANDBOX }),
    );
    expect(outside).toMatchObject({
      toolRequest: { display: { unsandboxed: { why: 'asked', reason: 'it asks to run outside the OS sandbox' } } },
    });
    const out = await dispatchCall(
      asking,
      { command: 'make', cwd: 'pkg', timeout_ms: 5000 },
      t.ctx({ sandbox: DECLARED_SANDBOX }),
    );
    expect(out).toMatchObject({
      toolRequest: { summary: '$ make\n(runs in pkg/ in the workspace folder; stopped after 5 s)' },
    });
    expect(fs.readdirSync(t.ws)).toEqual(['pkg']);
  });

  it('P4.33 a cwd outside the workspace → Error, nothing asked or run', async () => {
    const t = tempWorkspace();
    fs.symlinkSync(t.outside, path.join(t.ws, 'out'));
    for (const cwd of ['..', t.outside, 'out', 'missing']) {
      expect(text(await dispatchCall(asking, { command: 'touch x', cwd }, t.ctx()))).toMatch(/^Error/);
      expect(text(await asking.execute({ command: 'touch x', cwd }, t.ctx()))).toMatch(/^Error/);
    }
    expect(fs.readdirSync(t.outside)).toEqual([]);
  });

  it('policy rules: exact command, `prefix *` with plain arguments only, `*` for everything', () => {
    expect(commandMatchesRule('npm test', 'npm test')).toBe(true);
    expect(commandMatchesRule('  npm test ', 'npm test')).toBe(true);
    expect(commandMatchesRule('npm test -- -u', 'npm test')).toBe(false);
    expect(commandMatchesRule('npm test -- -u', 'npm test *')).toBe(true);
    expect(commandMatchesRule('npm test', 'npm test *')).toBe(true);
    expect(commandMatchesRule('npm tester', 'npm test *')).toBe(false);
    for (const evil of ['; rm -rf ~', '&& curl x', '| sh', '$(id)', '`id`', '> /etc/x', '\nrm x', '\\\nrm'])
      expect(commandMatchesRule(`npm test ${evil}`, 'npm test *')).toBe(false);
    expect(commandMatchesRule('anything; at all', '*')).toBe(true);
    expect(allowedWithoutApproval({ command: 'git status' }, policy('npm test', 'git status'))).toBe(true);
    expect(allowedWithoutApproval({ command: 'git push' }, policy('npm test', 'git status'))).toBe(false);
  });
});

describe('run_command: running (P4.35)', () => {
  it.skipIf(withoutSandbox('run_command: a command allowed by the policy runs'))(
    'allowed by the policy → runs in the workspace; exit code + combined output',
    async () => {
      const t = tempWorkspace();
      const tool = runCommandTool(policy('echo out; echo err >&2; exit 3'));
      expect(
        text(
          await dispatchCall(tool, { command: 'echo out; echo err >&2; exit 3' }, t.ctx({ sandbox: machineSandbox })),
        ),
      ).toBe('Exit code: 3\nout\nerr\n');
    },
  );

  it.skipIf(withoutSandbox('run_command: a command granted for the task runs'))(
    'granted for the task (P7.04) → runs without asking; an approved call runs in its cwd',
    async () => {
      const t = tempWorkspace();
      fs.mkdirSync(path.join(t.ws, 'sub'));
      const granted = runCommandTool(DEFAULT_POLICY);
      const sandboxed = t.ctx({ sandbox: machineSandbox });
      expect(text(await dispatchCall(granted, { command: 'pwd' }, sandboxed, 'allow'))).toBe(`Exit code: 0\n${t.ws}\n`);
      expect(text(await asking.execute({ command: 'pwd; true', cwd: 'sub' }, t.ctx()))).toBe(
        `Exit code: 0\n${path.join(t.ws, 'sub')}\n`,
      );
      expect(text(await dispatchCall(granted, { command: 'true' }, sandboxed, 'allow'))).toBe(
        'Exit code: 0\n(no output)',
      );
    },
  );

  it('long output is cut in the middle with a note', async () => {
    const t = tempWorkspace();
    const out = text(await asking.execute({ command: "head -c 100000 /dev/zero | tr '\\0' x; echo END" }, t.ctx()));
    expect(out).toContain(`… (${100004 - RUN_HEAD_CHARS - RUN_TAIL_CHARS} characters of output cut) …`);
    expect(out.endsWith('xEND\n')).toBe(true);
    expect(out.length).toBeLessThan(RUN_HEAD_CHARS + RUN_TAIL_CHARS + 200);
  });

  it('P4.35 cut output is kept whole in <runtimeDir>/outputs/<timestamp>-<n>.log and the note says where', async () => {
    const t = tempWorkspace();
    const rt = path.join(t.outside, 'runs', 'task_1');
    const command = "head -c 100000 /dev/zero | tr '\\0' x; echo END; exit 4";
    const out = text(await asking.execute({ command }, t.ctx({ runtimeDir: rt })));
    expect(out.split('\n')[0]).toBe('Exit code: 4');
    const note = /… \(\d+ characters of output cut; the whole output is in (.+\.log)\) …/.exec(out);
    expect(note).not.toBeNull();
    const log = note?.[1] as string;
    expect(path.dirname(log)).toBe(path.join(rt, 'outputs'));
    expect(path.basename(log)).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d+\.log$/);
    expect(fs.readFileSync(log, 'utf8')).toBe(`${'x'.repeat(100000)}END\n`);
    // Short output: no file.
    await asking.execute({ command: 'echo short' }, t.ctx({ runtimeDir: rt }));
    expect(fs.readdirSync(path.join(rt, 'outputs'))).toHaveLength(1);
  });

  it('timeout → Error, the whole process group is killed', async () => {
    const t = tempWorkspace();
    const started = Date.now();
    const out = text(
      await asking.execute({ command: 'sleep 30 & echo $! > pid; echo started; wait', timeout_ms: 300 }, t.ctx()),
    );
    expect(out).toBe('Error: the command timed out after 0.3 s and was stopped\nstarted\n');
    expect(Date.now() - started).toBeLessThan(2500);
    await expectGone(path.join(t.ws, 'pid'));
  });

  it('ctx.signal abort stops the group within 2 s, even a child that ignores SIGTERM', async () => {
    const t = tempWorkspace();
    const ac = new AbortController();
    const pending = asking.execute(
      { command: 'sh -c \'trap "" TERM; echo $$ > pid; sleep 30\' & wait' },
      t.ctx({ signal: ac.signal }),
    );
    // Aborted once the child ignores SIGTERM: it wrote its pid after setting the trap.
    await expect
      .poll(() => fs.existsSync(path.join(t.ws, 'pid')) && fs.statSync(path.join(t.ws, 'pid')).size > 0)
      .toBe(true);
    const abortedAt = Date.now();
    ac.abort();
    const out = text(await pending);
    expect(out).toMatch(/^Error: the command was cancelled and stopped/);
    expect(Date.now() - abortedAt).toBeLessThan(2000);
    await expectGone(path.join(t.ws, 'pid'));
  });

  it('a background child holding the output open does not hang the call', async () => {
    const t = tempWorkspace();
    const started = Date.now();
    const out = text(await asking.execute({ command: 'sleep 30 & echo $! > pid; echo done' }, t.ctx()));
    expect(out).toBe('Exit code: 0\ndone\n');
    expect(Date.now() - started).toBeLessThan(2500);
    await expectGone(path.join(t.ws, 'pid'));
  });
});

describe('run_command environment (P2.19)', () => {
  it("the task's packages are first on PATH, NODE_PATH and PYTHONPATH; MAESTRO_* variables are not passed", async () => {
    const t = tempWorkspace();
    const rt = path.join(t.outside, 'runs', 'task_1');
    const bin = path.join(rt, 'packages', 'npm', 'node_modules', '.bin');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'hello-pkg'), '#!/bin/sh\necho hello from the package\n', { mode: 0o755 });
    process.env.MAESTRO_LLM_API_KEY = 'sk-secret';
    try {
      const out = text(
        await asking.execute(
          {
            command: 'hello-pkg; echo "$PATH"; echo "$NODE_PATH"; echo "$PYTHONPATH"; echo "key=$MAESTRO_LLM_API_KEY"',
          },
          t.ctx({ runtimeDir: rt }),
        ),
      );
      const [, hello, pathVar, nodePath, pyPath, key] = out.split('\n');
      expect(hello).toBe('hello from the package');
      expect(pathVar?.split(':').slice(0, 2)).toEqual([bin, path.join(rt, 'packages', 'pip', 'bin')]);
      expect(nodePath?.split(':')[0]).toBe(path.join(rt, 'packages', 'npm', 'node_modules'));
      expect(pyPath?.split(':')[0]).toBe(path.join(rt, 'packages', 'pip'));
      expect(key).toBe('key=');
    } finally {
      delete process.env.MAESTRO_LLM_API_KEY;
    }
  });
});

describe('run_command: stopping a process that ignores SIGTERM and closed its output', () => {
  it('is still killed when the call times out', async () => {
    const t = tempWorkspace();
    const out = text(
      await asking.execute(
        { command: 'sh -c \'trap "" TERM; sleep 30\' >/dev/null 2>&1 & echo $! > pid; wait', timeout_ms: 300 },
        t.ctx(),
      ),
    );
    expect(out).toMatch(/^Error: the command timed out/);
    await expectGone(path.join(t.ws, 'pid'));
  });
});
