// The Workspace Tool Policy as Settings sees it: `<workspace>/.maestro/policy.json` in its file format. The file's
// rules (known tool names, one-line command rules) are checked in main by src-main/tools/policy-schema.ts alone, so
// this is only the shape the renderer reads and edits, never a second validator.
import { z } from 'zod';

/** The policy file's content, every key present (what main answers after applying the file's defaults). */
export const ToolPolicyDocument = z.object({
  tools: z.object({
    deny: z.array(z.string()),
    ask: z.array(z.string()).default([]),
    allow: z.array(z.string()).default([]),
  }),
  run_command: z.object({ allow: z.array(z.string()), network: z.array(z.string()).default([]) }),
  /** What the agent may spend (subtasks, delegate depth); Settings does not edit it and saves it back as it was. */
  limits: z.record(z.string(), z.unknown()).optional(),
  /** false: no workspace commit in this workspace (P2.21); Settings saves it back as it was. */
  workspace_commit: z.boolean().optional(),
  /** SSH targets run_command may run on; Settings does not edit them and saves them back as they were. */
  ssh: z.record(z.string(), z.unknown()).optional(),
});
export type ToolPolicyDocument = z.infer<typeof ToolPolicyDocument>;

/** What Settings reads and gets back after a save: one workspace's policy, or why its file cannot be used. */
export const ToolPolicyView = z.object({
  workspacePath: z.string(),
  file: z.string(),
  exists: z.boolean(),
  /** The file's policy; the defaults (nothing denied, run_command asks) when there is no file or it is broken. */
  policy: ToolPolicyDocument,
  /** Why the file cannot be used (naming the file and the field), or null. */
  error: z.string().nullable(),
  /** The tool names a policy may deny, in the order Settings lists them. */
  knownTools: z.array(z.string()),
});
export type ToolPolicyView = z.infer<typeof ToolPolicyView>;

/** The run_command rule that lets every command run without asking (full trust in the workspace). */
export const RUN_ANY_COMMAND = '*';
