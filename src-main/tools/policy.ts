// The Workspace Tool Policy: the only source of tool permission for a job (P2.18, P3.11). Read from
// `<workspace>/.maestro/policy.json` (defaults when absent) in the version a person accepted, then widened call by call
// by what a person granted for this task (P7.04; grants.ts says what each grant covers). The format is in README.md.
import path from 'node:path';
import { onDisk, SETTINGS_FILES, type SettingsText } from '../workspace/accepted-settings';
import { parseConfigJson } from '../workspace/json-file';
import { builtinTools } from './builtins';
import { type GrantScope, grantCovers } from './grants';
import type { ToolRules } from './permission';
import { DEFAULT_POLICY, PolicyFile, policyRule, toPolicy, type WorkspaceToolPolicy } from './policy-schema';
import type { SshSessions } from './ssh-run';
import type { AnyToolDef } from './types';

export { DEFAULT_POLICY, type WorkspaceToolPolicy } from './policy-schema';

export const POLICY_FILE = SETTINGS_FILES.policy;

/** A policy file that cannot be used: the one ConfigFileError, by the name its callers catch. */

export const policyFile = (workspacePath: string) => path.join(workspacePath, POLICY_FILE);

/** Parses a policy file's text; `file` is only used in error messages. */
export const parsePolicy = (text: string, file: string): WorkspaceToolPolicy =>
  toPolicy(parseConfigJson(text, file, PolicyFile));

/**
 * The workspace's policy: DEFAULT_POLICY when it has no policy file; a broken file throws ConfigFileError. `read`
 * gives the file's text: a job passes the accepted version's (AcceptedSettings.inForce), so a policy the agent
 * rewrote is not applied.
 */
export function loadPolicy(workspacePath: string, read: SettingsText = onDisk): WorkspaceToolPolicy {
  const file = policyFile(workspacePath);
  const text = read(workspacePath, POLICY_FILE);
  return text === null ? DEFAULT_POLICY : parsePolicy(text, file);
}

/** Whether a job gets the tool: not denied by the policy, or granted for the task (on any target) by a person. */
export function toolAllowed(policy: WorkspaceToolPolicy, grants: readonly GrantScope[], name: string): boolean {
  return policyRule(policy, name) !== 'deny' || grants.some((g) => g.tool === name);
}

/**
 * The rules the dispatcher applies: a call a grant of the task covers runs as if the policy allowed it (in the
 * sandbox; never past an `always` ask); any other gets the policy's rule for its tool's name. `grants` is read for
 * each call, so a grant revoked mid-run covers nothing from the next call on.
 */
export function toolRules(policy: WorkspaceToolPolicy, grants: () => readonly GrantScope[]): ToolRules {
  return {
    ruleFor: (name, args) => (grants().some((g) => grantCovers(g, name, args)) ? 'allow' : policyRule(policy, name)),
  };
}

/** The built-in tools a job gets: the policy's (every built-in unless denied) ∪ the tools of the task's grants. */
export function resolveTools(
  policy: WorkspaceToolPolicy,
  grants: readonly GrantScope[],
  ssh?: SshSessions,
): AnyToolDef[] {
  return builtinTools(policy, ssh).filter((t) => toolAllowed(policy, grants, t.name));
}
