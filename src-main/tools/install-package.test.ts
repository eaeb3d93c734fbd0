import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../test-support/tools';
import { createPackageInstaller, installPackage } from './install-package';

/** A fake package manager placed first on PATH: records its argv (one per line) and exits with `code`. */
function fakeManager(dir: string, name: string, code = 0) {
  const bin = path.join(dir, 'fake-bin');
  fs.mkdirSync(bin, { recursive: true });
  const log = path.join(dir, `${name}.argv`);
  fs.writeFileSync(
    path.join(bin, name),
    `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > '${log}'\necho "installing $*"\n[ ${code} -eq 0 ] || echo "ERR! 404 not found" >&2\nexit ${code}\n`,
    { mode: 0o755 },
  );
  return {
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    argv: () => fs.readFileSync(log, 'utf8').split('\n').slice(0, -1),
  };
}

describe('installPackage (after approval)', () => {
  it('npm → npm install --prefix <runtimeDir>/packages/npm name@version', async () => {
    const t = tempWorkspace();
    const rt = path.join(t.outside, 'runs', 'task_1');
    const npm = fakeManager(t.outside, 'npm');
    const r = await installPackage(
      rt,
      { manager: 'npm', name: 'left-pad', version: '1.3.0' },
      new AbortController().signal,
      {
        env: npm.env,
      },
    );
    expect(r).toEqual({ ok: true, output: `installing install --prefix ${rt}/packages/npm left-pad@1.3.0\n` });
    expect(npm.argv()).toEqual(['install', '--prefix', path.join(rt, 'packages', 'npm'), 'left-pad@1.3.0']);
    expect(fs.statSync(path.join(rt, 'packages', 'npm')).isDirectory()).toBe(true);
  });

  it('pip → pip install --target <runtimeDir>/packages/pip name==version; without a version, the bare name', async () => {
    const t = tempWorkspace();
    const rt = path.join(t.outside, 'rt');
    const pip = fakeManager(t.outside, 'pip');
    await installPackage(rt, { manager: 'pip', name: 'requests', version: '2.31.0' }, new AbortController().signal, {
      env: pip.env,
    });
    expect(pip.argv()).toEqual(['install', '--target', path.join(rt, 'packages', 'pip'), 'requests==2.31.0']);
    await installPackage(rt, { manager: 'pip', name: 'requests', version: null }, new AbortController().signal, {
      env: pip.env,
    });
    expect(pip.argv()).toEqual(['install', '--target', path.join(rt, 'packages', 'pip'), 'requests']);
  });

  it('a failing install returns the error tail; an invalid name never runs anything', async () => {
    const t = tempWorkspace();
    const npm = fakeManager(t.outside, 'npm', 1);
    const rt = path.join(t.outside, 'rt');
    const r = await installPackage(
      rt,
      { manager: 'npm', name: 'nope-pkg', version: null },
      new AbortController().signal,
      { env: npm.env },
    );
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^npm install nope-pkg failed \(exit code 1\)\n[\s\S]*ERR! 404 not found/);
    fs.rmSync(path.join(t.outside, 'npm.argv'));
    const bad = await installPackage(
      rt,
      { manager: 'npm', name: 'x; rm -rf /', version: null },
      new AbortController().signal,
      { env: npm.env },
    );
    expect(bad).toMatchObject({ ok: false, error: expect.stringMatching(/^name: /) });
    expect(fs.existsSync(path.join(t.outside, 'npm.argv'))).toBe(false);
  });
});

describe('createPackageInstaller (the engine’s PackageInstaller)', () => {
  it('installs into the runtime dir of the request’s task and answers the tool result text', async () => {
    const t = tempWorkspace();
    const npm = fakeManager(t.outside, 'npm');
    const install = createPackageInstaller((taskId) => path.join(t.outside, 'runs', taskId), { env: npm.env });
    const request = { taskId: 'task_9', manager: 'npm' as const, name: 'left-pad', version: null };
    expect(await install(request, new AbortController().signal)).toEqual({
      kind: 'result',
      ok: true,
      content:
        'Installed the npm package left-pad for this task; in run_command its commands are on PATH and its modules on NODE_PATH.',
    });
    expect(npm.argv()).toEqual([
      'install',
      '--prefix',
      path.join(t.outside, 'runs', 'task_9', 'packages', 'npm'),
      'left-pad',
    ]);
    const failing = createPackageInstaller(() => path.join(t.outside, 'rt'), {
      env: fakeManager(t.outside, 'npm', 1).env,
    });
    const failed = await failing(request, new AbortController().signal);
    expect(failed.ok).toBe(false);
    expect(failed.content).toMatch(
      /^Error: the npm package left-pad could not be installed: npm install left-pad failed/,
    );
  });
});
