// The Workspace Tool Policy's file format (`<workspace>/.maestro/policy.json`); see README.md.
import picomatch from 'picomatch';
import { z } from 'zod';
import { SSH_TARGET_NAME } from '../../src-shared/contract/ssh';
import { POLICY_TOOL_NAMES } from './names';

/**
 * A tool name or a pattern of them (`mcp__github__*`): built-in and engine tools by name, MCP tools as `mcp__…`, and an
 * MCP server's sampling requests as `mcp_sampling__<server>`.
 */
const toolRule = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_*?-]+$/, 'a tool name or pattern is letters, digits, "_", "-", "*" and "?"')
  .refine(
    (n) => POLICY_TOOL_NAMES.includes(n) || /[*?]/.test(n) || n.startsWith('mcp__') || n.startsWith('mcp_sampling__'),
    {
      error: (issue) =>
        `unknown tool ${JSON.stringify(issue.input)} (known: ${POLICY_TOOL_NAMES.join(', ')}, mcp__<server>__<tool>, mcp_sampling__<server>, or a pattern with *)`,
    },
  );

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

/**
 * One machine commands may run on over SSH (§2 M). `hostKey` is the only key accepted from it — a known_hosts line
 * (`[host]:port ssh-ed25519 AAAA…`, or just `ssh-ed25519 AAAA…`) or a `SHA256:…` fingerprint as `ssh-keygen -l`
 * prints it — so there is no trust on first use. `allow` / `deny`: command rules as for local commands; any other
 * command asks, since nothing sandboxes it there.
 */
export const SshTargetFile = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1, 'a host name or address')
    .regex(/^[^\s@/\\]+$/, 'a host name or address, without spaces, "@" or "/" (the user goes in "user")'),
  port: z.number().int().min(1).max(65535).optional(),
  user: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9._][A-Za-z0-9._-]{0,63}$/, 'a user name: letters, digits, ".", "_" and "-"'),
  hostKey: z
    .string()
    .trim()
    .refine((k) => hostKeyProblem(k) === null, {
      error: (issue) => hostKeyProblem(String(issue.input)) ?? 'not a host key',
    }),
  allow: z.array(commandRule).default([]),
  deny: z.array(commandRule).default([]),
});
export type SshTargetFile = z.infer<typeof SshTargetFile>;

export const SshFile = z.strictObject({
  targets: z.record(z.string(), SshTargetFile).superRefine((targets, ctx) => {
    for (const name of Object.keys(targets)) {
      if (!SSH_TARGET_NAME.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'a target name is 1–32 letters, digits, "_" or "-", starting with a letter or digit',
        });
      }
    }
  }),
});
export type SshFile = z.infer<typeof SshFile>;

/** The key types a host key line may name (OpenSSH's, certificates aside). */
const HOST_KEY_TYPE =
  /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com)$/;

/** The expected host key: a fingerprint, or a key (its type and SSH wire-format blob). */
export type ExpectedHostKey = { kind: 'fingerprint'; sha256: string } | { kind: 'key'; type: string; key: Buffer };

/** Reads a policy's `hostKey`; null when it is neither a `SHA256:` fingerprint nor a line holding a key. */
export function parseHostKey(text: string): ExpectedHostKey | null {
  const t = text.trim();
  if (/^SHA256:[A-Za-z0-9+/]{43}$/.test(t)) return { kind: 'fingerprint', sha256: t };
  if (/[\r\n]/.test(t)) return null;
  const fields = t.split(/\s+/);
  const at = fields.findIndex((f) => HOST_KEY_TYPE.test(f));
  const blob = at >= 0 ? fields[at + 1] : undefined;
  if (at < 0 || !blob || !/^[A-Za-z0-9+/]+={0,2}$/.test(blob)) return null;
  const key = Buffer.from(blob, 'base64');
  // The blob names its own type first: a line whose two disagree was pasted together wrong.
  const named = key.length >= 4 ? key.subarray(4, 4 + key.readUInt32BE(0)).toString('latin1') : '';
  return named === fields[at] ? { kind: 'key', type: named, key } : null;
}

function hostKeyProblem(text: string): string | null {
  if (parseHostKey(text) !== null) return null;
  return 'hostKey must be the host\'s key as a known_hosts line ("[host]:port ssh-ed25519 AAAA…") or its SHA256 fingerprint ("SHA256:…", as ssh-keygen -l prints it)';
}

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
  /** SSH targets `run_command` may run on (§2 M, P2.18); none without it. */
  ssh: SshFile.optional(),
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
  /** The SSH targets, sorted by name (the order of `run_command`'s `target` enum); none when absent. */
  sshTargets?: readonly SshTarget[];
  /** The file's `ssh` as written, saved back as it was by Settings. */
  ssh?: SshFile;
}

export interface SshTarget {
  name: string;
  host: string;
  port: number;
  user: string;
  hostKey: ExpectedHostKey;
  /** The policy's text of it, for messages. */
  hostKeyText: string;
  /** Command rules that run on this target without asking, and rules it never runs. */
  allow: readonly string[];
  deny: readonly string[];
}

function sshTargets(file: SshFile | undefined): SshTarget[] {
  return Object.entries(file?.targets ?? {})
    .map(([name, t]) => ({
      name,
      host: t.host,
      port: t.port ?? 22,
      user: t.user,
      hostKey: parseHostKey(t.hostKey) as ExpectedHostKey,
      hostKeyText: t.hostKey,
      allow: t.allow,
      deny: t.deny,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
    ...(file.ssh ? { ssh: file.ssh, sshTargets: sshTargets(file.ssh) } : {}),
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
