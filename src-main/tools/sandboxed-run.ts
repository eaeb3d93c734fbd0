// runProcess inside the OS sandbox: the sandbox wraps `/bin/sh -c command`, the wrapped program runs with the
// caller's cwd, environment, timeout and output limits, and the sandbox is released once it has exited.
import type { OsSandbox, SandboxScope } from './os-sandbox';
import { type RunProcessOptions, type RunProcessResult, runProcess } from './process-run';

export async function runSandboxed(
  sandbox: OsSandbox,
  command: string,
  run: Omit<RunProcessOptions, 'file' | 'args'>,
  scope: SandboxScope,
): Promise<RunProcessResult> {
  let wrapped: Awaited<ReturnType<OsSandbox['wrap']>>;
  try {
    wrapped = await sandbox.wrap(command, run.cwd, scope);
  } catch (error) {
    const spawnError: NodeJS.ErrnoException = new Error(
      `the OS sandbox could not be set up: ${(error as Error).message}`,
    );
    return { exitCode: null, exitSignal: null, output: '', timedOut: false, aborted: false, spawnError };
  }
  try {
    return await runProcess({ ...run, file: wrapped.file, args: wrapped.args });
  } finally {
    wrapped.release();
  }
}
