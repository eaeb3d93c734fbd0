// The built-in tools in the order of the bridge-api table; run_command is built for a policy (its command rules).
import { editFileTool } from './edit-file';
import { globTool } from './glob';
import { grepTool } from './grep';
import { listDirTool } from './list-dir';
import { DEFAULT_POLICY, type WorkspaceToolPolicy } from './policy-schema';
import { readFileTool } from './read-file';
import { requestPackageTool } from './request-package';
import { runCommandTool } from './run-command';
import type { SshSessions } from './ssh-run';
import type { AnyToolDef } from './types';
import { writeFileTool } from './write-file';

export function builtinTools(policy: WorkspaceToolPolicy = DEFAULT_POLICY, ssh?: SshSessions): AnyToolDef[] {
  return [
    readFileTool,
    listDirTool,
    globTool,
    grepTool,
    writeFileTool,
    editFileTool,
    runCommandTool(policy, ssh),
    requestPackageTool,
  ];
}
