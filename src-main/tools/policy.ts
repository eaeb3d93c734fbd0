// The Workspace Tool Policy: the only source of tool permission for a job (P2.18, P3.11). Read from
// `<workspace>/.maestro/policy.json` (defaults when absent), then unioned with the tools a person approved with
// scope `task` in this task (P7.04). The format is in README.md.
import fs from 'node:fs';
import path from 'node:path';
import { builtinTools } from './builtins';
import { DEFAULT_POLICY, PolicyFile, toPolicy, type WorkspaceToolPolicy } from './policy-schema';
import type { AnyToolDef } from './types';

export { DEFAULT_POLICY, type WorkspaceToolPolicy } from './policy-schema';

export const POLICY_FILE = path.join('.maestro', 'policy.json');

/** A policy file that cannot be used; the message names the file and the field. */
export class PolicyError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'PolicyError';
  }
}

export const policyFile = (workspacePath: string) => path.join(workspacePath, POLICY_FILE);

/** Parses a policy file's text; `file` is only used in error messages. */
export function parsePolicy(text: string, file: string): WorkspaceToolPolicy {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new PolicyError(file, `not valid JSON (${(e as Error).message})`);
  }
  const parsed = PolicyFile.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new PolicyError(file, issues.join('; '));
  }
  return toPolicy(parsed.data);
}

/** The workspace's policy: DEFAULT_POLICY when it has no policy file; a broken file throws PolicyError. */
export function loadPolicy(workspacePath: string): WorkspaceToolPolicy {
  const file = policyFile(workspacePath);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return DEFAULT_POLICY;
    throw new PolicyError(file, `cannot be read (${(e as Error).message})`);
  }
  return parsePolicy(text, file);
}

/** Whether a job gets the tool: not denied by the policy, or granted for the task by a person. */
export function toolAllowed(policy: WorkspaceToolPolicy, grants: readonly string[], name: string): boolean {
  return !policy.deniedTools.includes(name) || grants.includes(name);
}

/**
 * The built-in tools a job gets: the policy's (every built-in unless denied) ∪ the task's grants (tool names approved
 * with scope `task`). A run_command grant also lets every run_command call run without asking.
 */
export function resolveTools(policy: WorkspaceToolPolicy, grants: readonly string[]): AnyToolDef[] {
  return builtinTools(policy, grants.includes('run_command')).filter((t) => toolAllowed(policy, grants, t.name));
}
