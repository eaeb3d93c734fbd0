// The tools module's entry: the built-in tools, the tools a job gets under its workspace's policy, and what the
// engine needs after a person approved a request.

import { loadPolicy, resolveTools } from './policy';
import type { AnyToolDef } from './types';

export { builtinTools } from './builtins';
export {
  createPackageInstaller,
  type InstallResult,
  installPackage,
  installToolResult,
  type PackageToInstall,
} from './install-package';
export { BUILTIN_TOOL_NAMES, type BuiltinToolName } from './names';
export { commandEnv, packageDirs } from './package-paths';
export {
  DEFAULT_POLICY,
  loadPolicy,
  POLICY_FILE,
  PolicyError,
  resolveTools,
  toolAllowed,
  type WorkspaceToolPolicy,
} from './policy';
export { allowedWithoutApproval } from './run-command';
export { resolveInWorkspace } from './sandbox';

export interface JobToolsInput {
  workspacePath: string;
  /** Tool names a person approved with scope `task` in this task. */
  grants: readonly string[];
}

/** The built-in tools of a job: the workspace's policy ∪ the task's grants. Throws PolicyError on a broken policy. */
export function toolsForJob(input: JobToolsInput): AnyToolDef[] {
  return resolveTools(loadPolicy(input.workspacePath), input.grants);
}
