// The tools module's entry: the built-in tools, the workspace's policy, and what the engine needs after a person
// approved a request.

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
  resolveTools,
  toolAllowed,
  type WorkspaceToolPolicy,
} from './policy';
export { allowedWithoutApproval } from './run-command';
export { resolveInWorkspace } from './sandbox';
