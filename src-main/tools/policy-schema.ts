// The Workspace Tool Policy's file format (`<workspace>/.maestro/policy.json`); see README.md.
import picomatch from 'picomatch';
import { z } from 'zod';
import { POLICY_TOOL_NAMES } from './names';

/** A tool name or a pattern of them (`mcp__github__*`): built-in and engine tools by name, MCP tools as `mcp__…`. */
const toolRule = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_*?-]+$/, 'a tool name or pattern is letters, digits, "_", "-", "*" and "?"')
  .refine((n) => POLICY_TOOL_NAMES.includes(n) || /[*?]/.test(n) || n.startsWith('mcp__'), {
    error: (issue) =>
      `unknown tool ${JSON.stringify(issue.input)} (known: ${POLICY_TOOL_NAMES.join(', ')}, mcp__<server>__<tool>, or a pattern with *)`,
  });

const commandRule = z
  .string()
  .trim()
  .min(1, 'a rule must not be empty')
  .refine((r) => !/[\r\n]/.test(r), 'a rule is one line');

/**
 * What the agent may spend in this workspace (issue 21), each overriding the piece's value and the default
 * (src-main/engine/spend-limits.ts): subtasks per task tree and their depth, delegate's depth.
 */
export const LimitsFile = z.strictObject({
  subtasks: z
    .strictObject({
      /** How deep subtasks may nest: 1 = the task's own subtasks only; 0 = none. */
      max_depth: z.number().int().min(0).max(10).optional(),
      /** How many subtasks the whole tree under a task may hold, at every depth together; 0 = none. */
      max_count: z.number().int().min(0).max(1000).optional(),
    })
    .optional(),
  delegate: z
    .strictObject({
      /** How deep delegate's sub-agents may nest (0 = no delegate). */
      max_depth: z.number().int().min(0).max(5).optional(),
    })
    .optional(),
});
export type LimitsFile = z.infer<typeof LimitsFile>;

export const PolicyFile = z.strictObject({
  tools: z
    .strictObject({
      /** Tools the agent never gets in this workspace. */
      deny: z.array(toolRule).default([]),
      /** Tools whose every call asks a person first. */
      ask: z.array(toolRule).default([]),
      /** Tools whose calls run without asking (run_command: in the OS sandbox, every command). */
      allow: z.array(toolRule).default([]),
    })
    .default({ deny: [], ask: [], allow: [] }),
  run_command: z
    .strictObject({
      /** Commands that run in the OS sandbox without asking: exact commands, `prefix *` rules, or `*` for all. */
      allow: z.array(commandRule).default([]),
      /** Hosts a sandboxed command may reach without asking (`registry.npmjs.org`, `*.example.com`). */
      network: z.array(commandRule).default([]),
    })
    .default({ allow: [], network: [] }),
  limits: LimitsFile.optional(),
  /** false: a succeeded job never commits in this workspace (P2.21; on by default, as Settings says). */
  workspace_commit: z.boolean().optional(),
});

export interface WorkspaceToolPolicy {
  /** Tools (names or patterns) the agent never gets in this workspace (unless a person granted one for the task). */
  deniedTools: readonly string[];
  /** Tools whose every call asks. */
  askTools: readonly string[];
  /** Tools whose calls run without asking. */
  allowTools: readonly string[];
  /** run_command rules that run a command in the OS sandbox without asking. */
  runCommandAllow: readonly string[];
  /** Hosts a sandboxed command may reach without asking. */
  runCommandNetwork: readonly string[];
  /** The file's `limits` as written (absent: the piece's or the default). */
  limits?: LimitsFile;
  /** false: no workspace commit here (absent: Settings decide). */
  workspaceCommit?: boolean;
}

/** No policy file: every built-in tool, run_command asks every time, MCP tools that may change things ask. */
export const DEFAULT_POLICY: WorkspaceToolPolicy = {
  deniedTools: [],
  askTools: [],
  allowTools: [],
  runCommandAllow: [],
  runCommandNetwork: [],
};

export function toPolicy(file: z.infer<typeof PolicyFile>): WorkspaceToolPolicy {
  return {
    deniedTools: file.tools.deny,
    askTools: file.tools.ask,
    allowTools: file.tools.allow,
    runCommandAllow: file.run_command.allow,
    runCommandNetwork: file.run_command.network,
    ...(file.limits ? { limits: file.limits } : {}),
    ...(file.workspace_commit !== undefined ? { workspaceCommit: file.workspace_commit } : {}),
  };
}

const matches = (rules: readonly string[], name: string) => rules.some((r) => r === name || picomatch.isMatch(name, r));

/** The policy's rule for a tool: the strictest that names it (deny, then ask, then allow), or none. */
export function policyRule(policy: WorkspaceToolPolicy, name: string): 'deny' | 'ask' | 'allow' | undefined {
  if (matches(policy.deniedTools, name)) return 'deny';
  if (matches(policy.askTools, name)) return 'ask';
  if (matches(policy.allowTools, name)) return 'allow';
  return undefined;
}
