import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import type { RecordedRequest } from '../../test-support/scripted-llm-server';
import { tempDir } from '../../test-support/temp-maestro';
import { runtimeDir } from '../workspace/paths';

type Msg = { role: string; content: string | null };
const messages = (r: RecordedRequest | undefined) => (r?.body?.messages ?? []) as Msg[];

const originalPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = originalPath;
});

/** A test double of npm, first on PATH: records its argv, then succeeds or fails. */
function fakeNpm(exitCode: number): string {
  const dir = tempDir('fake-npm-');
  const script = path.join(dir, 'npm');
  fs.writeFileSync(
    script,
    `#!/bin/sh\necho "$@" > "${dir}/argv"\nif [ ${exitCode} -ne 0 ]; then echo "npm ERR! 404 Not Found" >&2; exit ${exitCode}; fi\necho "added 1 package"\n`,
    { mode: 0o755 },
  );
  process.env.PATH = `${dir}:${originalPath}`;
  return dir;
}

const request = call('request_package', { manager: 'npm', name: 'left-pad', version: '1.3.0', reason: 'pad strings' });

describe('package requests through the engine', () => {
  it('P4.40 P2.24 P7.08 approve: installed into the task runtime dir (never globally); the model gets the result', async () => {
    const npm = fakeNpm(0);
    const h = await engineHarness([request, complete('installed')], { policyTools: true });
    const { taskId, jobId } = h.createTask('Pad it');
    expect(await h.waitFor(jobId, SETTLED)).toMatchObject({ status: 'waiting_human', waitReason: 'package_request' });
    const [pending] = h.maestro.invoke('listPackageRequests', { taskId }).requests;
    expect(pending).toMatchObject({
      manager: 'npm',
      name: 'left-pad',
      version: '1.3.0',
      reason: 'pad strings',
      status: 'pending',
    });
    h.maestro.invoke('decidePackageRequest', { taskId, requestId: pending?.id as string, decision: 'approve' });
    expect((await h.waitFor(jobId, ['succeeded', 'failed'])).status).toBe('succeeded');
    const argv = fs.readFileSync(path.join(npm, 'argv'), 'utf8').trim();
    expect(argv).toBe(`install --prefix ${path.join(runtimeDir(h.dataDir, taskId), 'packages', 'npm')} left-pad@1.3.0`);
    expect(messages(h.server.requests[1]).at(-1)?.content).toMatch(/left-pad/);
    expect(messages(h.server.requests[1]).at(-1)?.content).not.toMatch(/^Error/);
  });

  it('P7.09 a failed install gives the model an Error with the failure; the job still goes on', async () => {
    fakeNpm(1);
    const h = await engineHarness([request, complete('coped')], { policyTools: true });
    const { taskId, jobId } = h.createTask('Pad it');
    await h.waitFor(jobId, SETTLED);
    const [pending] = h.maestro.invoke('listPackageRequests', { taskId }).requests;
    h.maestro.invoke('decidePackageRequest', { taskId, requestId: pending?.id as string, decision: 'approve' });
    expect((await h.waitFor(jobId, ['succeeded', 'failed'])).result).toBe('coped');
    const result = messages(h.server.requests[1]).at(-1)?.content ?? '';
    expect(result).toMatch(/^Error/);
    expect(result).toContain('404 Not Found');
  });

  it('P7.10 deny: nothing is installed and the model gets an Error', async () => {
    const npm = fakeNpm(0);
    const h = await engineHarness([request, complete('ok')], { policyTools: true });
    const { taskId, jobId } = h.createTask('Pad it');
    await h.waitFor(jobId, SETTLED);
    const [pending] = h.maestro.invoke('listPackageRequests', { taskId }).requests;
    h.maestro.invoke('decidePackageRequest', { taskId, requestId: pending?.id as string, decision: 'deny' });
    await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(fs.existsSync(path.join(npm, 'argv'))).toBe(false);
    expect(messages(h.server.requests[1]).at(-1)?.content).toMatch(/^Error: the user denied/);
  });

  it("P7.10 deny with a reason: nothing is installed and the model gets the person's words", async () => {
    const npm = fakeNpm(0);
    const h = await engineHarness([request, complete('ok')], { policyTools: true });
    const { taskId, jobId } = h.createTask('Pad it');
    await h.waitFor(jobId, SETTLED);
    const [pending] = h.maestro.invoke('listPackageRequests', { taskId }).requests;
    const requestId = pending?.id as string;
    expect(() =>
      h.maestro.invoke('decidePackageRequest', { taskId, requestId, decision: 'approve', reason: 'sure' }),
    ).toThrow(/reason: a reason goes with deny only/);
    const { request: denied } = h.maestro.invoke('decidePackageRequest', {
      taskId,
      requestId,
      decision: 'deny',
      reason: 'use String.prototype.padStart',
    });
    expect(denied).toMatchObject({ status: 'denied', denyReason: 'use String.prototype.padStart' });
    await h.waitFor(jobId, ['succeeded', 'failed']);
    expect(fs.existsSync(path.join(npm, 'argv'))).toBe(false);
    expect(messages(h.server.requests[1]).at(-1)?.content).toContain('saying: "use String.prototype.padStart"');
  });
});
