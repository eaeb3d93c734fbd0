// runProcess inside the OS sandbox: the sandbox wraps `/bin/sh -c command`, the wrapped program runs with the
// caller's cwd, environment, timeout and output limits, and the sandbox is released once it has exited. `notes` say
// what the sandbox did that the output alone does not show: paths it hid that the output names, and files the command
// made that would run code outside the sandbox, which were removed.
import path from 'node:path';
import type { OsSandbox, SandboxScope } from './os-sandbox';
import { type RunProcessOptions, type RunProcessResult, runProcess } from './process-run';

export async function runSandboxed(
  sandbox: OsSandbox,
  command: string,
  run: Omit<RunProcessOptions, 'file' | 'args'>,
  scope: SandboxScope,
): Promise<RunProcessResult & { notes: string[] }> {
  let wrapped: Awaited<ReturnType<OsSandbox['wrap']>>;
  try {
    wrapped = await sandbox.wrap(command, run.cwd, scope);
  } catch (error) {
    const spawnError: NodeJS.ErrnoException = new Error(
      `the OS sandbox could not be set up: ${(error as Error).message}`,
    );
    return { exitCode: null, exitSignal: null, output: '', timedOut: false, aborted: false, spawnError, notes: [] };
  }
  let result: RunProcessResult;
  let removed: string[] = [];
  try {
    result = await runProcess({ ...run, file: wrapped.file, args: wrapped.args });
  } finally {
    removed = wrapped.release();
  }
  const notes: string[] = [];
  if (removed.length > 0) {
    const shown = removed.map((p) => path.relative(run.cwd, p) || p).join(', ');
    notes.push(
      `Note: removed ${shown}, which the command made: git would run it outside the sandbox. A repository made in the sandbox keeps working without them; a person runs git init, git clone or git config.`,
    );
  }
  const hidden = wrapped.explain(result.output);
  if (hidden !== null) notes.push(hidden);
  return { ...result, notes };
}
