// Installs an approved package request into the task's runtime dir — npm under packages/npm, pip under packages/pip,
// never globally — and reports success or the tail of the error output. With an OS sandbox the package manager runs
// in it: it writes only the task's packages folder and reaches only its registry.
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxChoice } from './os-sandbox';
import { fail, ok } from './outcome';
import { checkPackage, type PackageManager, packageSpec } from './package-names';
import { commandEnv, packageDirs } from './package-paths';
import { runProcess } from './process-run';
import { runSandboxed } from './sandboxed-run';
import { shellQuote } from './shell-quote';
import type { ToolResult } from './types';

export const INSTALL_TIMEOUT_MS = 600_000;
const TAIL_CHARS = 4000;

export interface PackageToInstall {
  manager: PackageManager;
  name: string;
  version: string | null;
}

export type InstallResult = { ok: true; output: string } | { ok: false; error: string };

export interface InstallOptions {
  /** The environment the package manager runs with (default: the app's own, without MAESTRO_* variables). */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** The OS sandbox to install in; without one the approved install runs as the app's user. */
  sandbox?: SandboxChoice;
}

/** The hosts each package manager needs: its default registry (and where PyPI keeps the files). */
export const REGISTRY_HOSTS: Record<PackageManager, readonly string[]> = {
  npm: ['registry.npmjs.org'],
  pip: ['pypi.org', 'files.pythonhosted.org'],
};

/** The exact program and argv for a request (no shell involved). */
export function installCommand(runtimeDir: string, request: PackageToInstall): { file: string; args: string[] } {
  const spec = packageSpec(request.manager, request.name, request.version);
  const dirs = packageDirs(runtimeDir);
  return request.manager === 'npm'
    ? { file: 'npm', args: ['install', '--prefix', dirs.npmPrefix, spec] }
    : { file: 'pip', args: ['install', '--target', dirs.pipTarget, spec] };
}

export async function installPackage(
  runtimeDir: string,
  request: PackageToInstall,
  signal: AbortSignal,
  options: InstallOptions = {},
): Promise<InstallResult> {
  const problem = checkPackage(request.manager, request.name, request.version);
  if (problem) return { ok: false, error: problem };
  const { file, args } = installCommand(runtimeDir, request);
  const dirs = packageDirs(runtimeDir);
  fs.mkdirSync(request.manager === 'npm' ? dirs.npmPrefix : dirs.pipTarget, { recursive: true });
  const packagesDir = path.dirname(dirs.npmPrefix);
  // The package managers' caches live beside the packages: in the sandbox nothing else is writable.
  const env = {
    ...(options.env ?? commandEnv(process.env)),
    npm_config_cache: path.join(packagesDir, '.npm-cache'),
    PIP_CACHE_DIR: path.join(packagesDir, '.pip-cache'),
  };
  const run = (program: string, argv: string[]) => {
    const o = {
      cwd: runtimeDir,
      env,
      timeoutMs: options.timeoutMs ?? INSTALL_TIMEOUT_MS,
      signal,
      headChars: 0,
      tailChars: TAIL_CHARS,
    };
    const sandbox = options.sandbox;
    if (!sandbox?.ok) return runProcess({ ...o, file: program, args: argv });
    const command = [program, ...argv].map(shellQuote).join(' ');
    return runSandboxed(sandbox.sandbox, command, o, {
      writable: [packagesDir],
      readable: [packagesDir],
      network: REGISTRY_HOSTS[request.manager],
    });
  };
  let r = await run(file, args);
  // Where only Python's own pip exists (no `pip` on PATH), the same install through `python3 -m pip`.
  if (r.spawnError?.code === 'ENOENT' && file === 'pip') r = await run('python3', ['-m', 'pip', ...args]);
  const spec = packageSpec(request.manager, request.name, request.version);
  if (r.spawnError) return { ok: false, error: `could not start ${file}: ${r.spawnError.message}` };
  if (r.aborted) return { ok: false, error: `installing ${spec} was cancelled` };
  if (r.timedOut) return { ok: false, error: `installing ${spec} timed out\n${r.output}` };
  if (r.exitCode !== 0) {
    const status = r.exitCode !== null ? `exit code ${r.exitCode}` : `signal ${r.exitSignal}`;
    return { ok: false, error: `${file} install ${spec} failed (${status})\n${r.output}` };
  }
  return { ok: true, output: r.output };
}

/** The tool result for an approved package request once the install ended. */
export function installToolResult(request: PackageToInstall, result: InstallResult): ToolResult {
  const spec = packageSpec(request.manager, request.name, request.version);
  if (!result.ok) return fail(`the ${request.manager} package ${spec} could not be installed: ${result.error}`);
  const where =
    request.manager === 'npm'
      ? 'its commands are on PATH and its modules on NODE_PATH'
      : 'it is on PYTHONPATH and its scripts on PATH';
  return ok(`Installed the ${request.manager} package ${spec} for this task; in run_command ${where}.`);
}

/** The engine's PackageInstaller: installs an approved request into its task's runtime dir and answers the call. */
export function createPackageInstaller(
  runtimeDirOf: (taskId: string) => string,
  options: InstallOptions = {},
): (request: PackageToInstall & { taskId: string }, signal: AbortSignal) => Promise<ToolResult> {
  return async (request, signal) => {
    const result = await installPackage(runtimeDirOf(request.taskId), request, signal, options);
    return installToolResult(request, result);
  };
}
