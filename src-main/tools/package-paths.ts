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
 * Variables a command gets from the app's environment: where programs and home are, the locale and the terminal.
 * Nothing else: the app's environment may hold secrets (the LLM API key, cloud credentials, tokens).
 */
const PASSED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TZ',
  'TMPDIR',
  'NODE_PATH',
  'PYTHONPATH',
  // Windows: what programs need to start at all.
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'TEMP',
  'TMP',
  'PROGRAMFILES',
]);
const passed = (name: string) => PASSED.has(name.toUpperCase()) || name.startsWith('LC_');

/**
 * The environment for a command: PATH, HOME, the locale and a few more of the app's variables (see PASSED), with the
 * task's packages first on PATH, NODE_PATH and PYTHONPATH when a runtime dir is given.
 */
export function commandEnv(base: NodeJS.ProcessEnv, runtimeDir?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (passed(k)) env[k] = v;
  if (runtimeDir) {
    const d = packageDirs(runtimeDir);
    env.PATH = prepend(`${d.npmBin}${path.delimiter}${d.pipBin}`, env.PATH);
    env.NODE_PATH = prepend(d.nodeModules, env.NODE_PATH);
    env.PYTHONPATH = prepend(d.pipTarget, env.PYTHONPATH);
  }
  return env;
}
