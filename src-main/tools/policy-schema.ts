// The Workspace Tool Policy's file format (`<workspace>/.maestro/policy.json`); see README.md.
import { z } from 'zod';
import { POLICY_TOOL_NAMES } from './names';

const toolName = z.string().refine((n) => POLICY_TOOL_NAMES.includes(n), {
  error: (issue) => `unknown tool ${JSON.stringify(issue.input)} (known: ${POLICY_TOOL_NAMES.join(', ')})`,
});

const commandRule = z
  .string()
  .trim()
  .min(1, 'a rule must not be empty')
  .refine((r) => !/[\r\n]/.test(r), 'a rule is one line');

export const PolicyFile = z.strictObject({
  tools: z
    .strictObject({
      /** Tools the agent never gets in this workspace. */
      deny: z.array(toolName).default([]),
    })
    .default({ deny: [] }),
  run_command: z
    .strictObject({
      /** Commands that run in the OS sandbox without asking: exact commands, `prefix *` rules, or `*` for all. */
      allow: z.array(commandRule).default([]),
      /** Hosts a sandboxed command may reach without asking (`registry.npmjs.org`, `*.example.com`). */
      network: z.array(commandRule).default([]),
    })
    .default({ allow: [], network: [] }),
});

export interface WorkspaceToolPolicy {
  /** Tools the agent never gets in this workspace (unless a person granted one for the task). */
  deniedTools: readonly string[];
  /** run_command rules that run a command in the OS sandbox without asking. */
  runCommandAllow: readonly string[];
  /** Hosts a sandboxed command may reach without asking. */
  runCommandNetwork: readonly string[];
}

/** No policy file: every built-in tool, and run_command asks every time. */
export const DEFAULT_POLICY: WorkspaceToolPolicy = { deniedTools: [], runCommandAllow: [], runCommandNetwork: [] };

export function toPolicy(file: z.infer<typeof PolicyFile>): WorkspaceToolPolicy {
  return {
    deniedTools: file.tools.deny,
    runCommandAllow: file.run_command.allow,
    runCommandNetwork: file.run_command.network,
  };
}
