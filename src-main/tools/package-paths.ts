// Where approved packages of a task are installed (inside its runtime dir, never globally), and the environment that
// makes them usable by run_command (P2.19).
import path from 'node:path';

export function packageDirs(runtimeDir: string) {
  const npmPrefix = path.join(runtimeDir, 'packages', 'npm');
  const pipTarget = path.join(runtimeDir, 'packages', 'pip');
  return {
    npmPrefix,
    nodeModules: path.join(npmPrefix, 'node_modules'),
    npmBin: path.join(npmPrefix, 'node_modules', '.bin'),
    pipTarget,
    pipBin: path.join(pipTarget, 'bin'),
  };
}

const prepend = (first: string, rest: string | undefined) => (rest ? `${first}${path.delimiter}${rest}` : first);

/**
 * The environment for a command: the app's own, without MAESTRO_* variables (they may hold secrets such as the LLM
 * API key), with the task's packages first on PATH, NODE_PATH and PYTHONPATH when a runtime dir is given.
 */
export function commandEnv(base: NodeJS.ProcessEnv, runtimeDir?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!k.startsWith('MAESTRO_')) env[k] = v;
  if (runtimeDir) {
    const d = packageDirs(runtimeDir);
    env.PATH = prepend(`${d.npmBin}${path.delimiter}${d.pipBin}`, env.PATH);
    env.NODE_PATH = prepend(d.nodeModules, env.NODE_PATH);
    env.PYTHONPATH = prepend(d.pipTarget, env.PYTHONPATH);
  }
  return env;
}
