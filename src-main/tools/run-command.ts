// run_command { command, cwd?, timeout_ms?, network?, outside_sandbox?, target? }: a shell command in the workspace,
// run in the OS sandbox (os-sandbox.ts) — or, with `target`, on an SSH target the policy names (ssh-run.ts), where
// nothing sandboxes it, so it asks unless that target's rules allow the command. It asks a person first (a tool request with a summary they can judge, P4.34) unless
// the Workspace Tool Policy or a task grant allows it (P4.35) — and an allow only ever means "runs in the sandbox
// without asking": without an OS sandbox every command asks, and so does one that needs a host the policy does not
// list, or that asks to run outside the sandbox. The dispatcher decides (permission.ts) from reviewCommand.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { CommandDisplay } from '../../src-shared/entities';
import { fail, ok } from './outcome';
import { commandEnv } from './package-paths';
import type { SshTarget, WorkspaceToolPolicy } from './policy-schema';
import { runProcess } from './process-run';
import { resolveInWorkspace } from './sandbox';
import { runSandboxed } from './sandboxed-run';
import { type SshSessions, where } from './ssh-run';
import type { CallReview, ToolContext, ToolDef, ToolOutcome } from './types';

export const RUN_DEFAULT_TIMEOUT_MS = 120_000;
export const RUN_MAX_TIMEOUT_MS = 600_000;
export const RUN_HEAD_CHARS = 10_000;
export const RUN_TAIL_CHARS = 20_000;

/** The same words with or without targets, so `tools` changes only by the enum (spec 3.4). */
const TARGET_DESCRIPTION =
  'The SSH target (named in the workspace policy) to run the command on instead of this machine; cwd is then a folder there. Leave it out to run here.';

/** A host a sandboxed command may reach: a name, `*.` in front for its subdomains, `:port` after for one port. */
const HOST =
  /^(\*\.)?[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::\d{1,5})?$/;

export const RunCommandArgs = z.strictObject({
  command: z.string().trim().min(1).describe('The shell command, run with /bin/sh -c.'),
  cwd: z
    .string()
    .optional()
    .describe('Folder to run it in, relative to the workspace folder. Default: the workspace folder.'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(RUN_MAX_TIMEOUT_MS)
    .optional()
    .describe(
      `Stop the command after this many milliseconds. Default ${RUN_DEFAULT_TIMEOUT_MS}, at most ${RUN_MAX_TIMEOUT_MS}.`,
    ),
  network: z
    .array(z.string().trim().regex(HOST, 'a host name, optionally with *. in front or :port after'))
    .max(20)
    .optional()
    .describe(
      'Hosts the command must reach (e.g. ["registry.npmjs.org"]); without it the command has no network. A person approves hosts the workspace policy does not list.',
    ),
  outside_sandbox: z
    .boolean()
    .optional()
    .describe(
      'Run without the OS sandbox (full access to the machine). Only when the sandbox stops the command; a person always approves it.',
    ),
  // A plain string here, so that a name the policy does not know gets an answer naming the known ones; the schema the
  // model sees lists them (runCommandJsonSchema).
  target: z.string().optional().describe(TARGET_DESCRIPTION),
});
export type RunCommandArgs = z.infer<typeof RunCommandArgs>;

/** Characters that would let arguments after an allowed prefix start another command or substitute one. */
export const SHELL_META = /[;&|<>`$()\\\r\n]/;

/** One policy rule: `*` (every command), `prefix *` (that prefix, then plain arguments), or an exact command. */
export function commandMatchesRule(command: string, rule: string): boolean {
  const cmd = command.trim();
  const r = rule.trim();
  if (r === '*') return true;
  if (r.endsWith(' *')) {
    const prefix = r.slice(0, -2).trimEnd();
    if (cmd === prefix) return true;
    return cmd.startsWith(`${prefix} `) && !SHELL_META.test(cmd.slice(prefix.length));
  }
  return cmd === r;
}

/** Whether the Workspace Tool Policy's rules cover the command and every host it needs. */
export function allowedWithoutApproval(
  args: Pick<RunCommandArgs, 'command' | 'network'>,
  policy: WorkspaceToolPolicy,
): boolean {
  const hostsAllowed = (args.network ?? []).every((h) => policy.runCommandNetwork.includes(h));
  return hostsAllowed && policy.runCommandAllow.some((rule) => commandMatchesRule(args.command, rule));
}

/** Why this call must ask even when a rule or grant covers it, or null. */
/** Why the command would run outside the sandbox (`reason`: the sandbox's own words when there is none), or null. */
function mustAsk(args: RunCommandArgs, ctx: ToolContext): Unsandboxed {
  if (args.outside_sandbox) return { why: 'asked', reason: 'it asks to run outside the OS sandbox' };
  if (!ctx.sandbox.ok) return { why: 'no_sandbox', reason: ctx.sandbox.reason };
  return null;
}

type Unsandboxed = CommandDisplay['unsandboxed'];

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function workingFolder(args: RunCommandArgs, ctx: ToolContext) {
  const target = resolveInWorkspace(ctx.workspacePath, args.cwd ?? '.');
  if (!target.ok) return target;
  try {
    if (!fs.statSync(target.path).isDirectory())
      return { ok: false as const, error: `cwd ${args.cwd} is not a folder` };
  } catch {
    return { ok: false as const, error: `cwd ${args.cwd} does not exist` };
  }
  return target;
}

/** What the approval card says: the exact command, where and how it runs, what it may reach, how long it may take. */
export function summarizeCommand(args: RunCommandArgs, rel: string, unsandboxed: Unsandboxed = null): string {
  const where = rel === '.' ? 'the workspace folder' : `${rel}/ in the workspace folder`;
  const lines = [
    `$ ${args.command}`,
    `(runs in ${where}; stopped after ${seconds(args.timeout_ms ?? RUN_DEFAULT_TIMEOUT_MS)})`,
  ];
  if (unsandboxed !== null) lines.push(`NOT sandboxed: ${unsandboxed.reason}, so it would run with your full access.`);
  else if (args.network?.length) lines.push(`Network: ${args.network.join(', ')}`);
  return lines.join('\n');
}

/**
 * Runs the command now: /bin/sh -c in the workspace cwd, with a timeout and the task's packages on its paths — in the
 * OS sandbox (the workspace writable, the hosts of `network` reachable), unless it was approved to run outside it or
 * there is none (then a person approved it knowing that).
 */
export async function runCommand(args: RunCommandArgs, ctx: ToolContext): Promise<ToolOutcome> {
  const cwd = workingFolder(args, ctx);
  if (!cwd.ok) return fail(cwd.error);
  const timeoutMs = args.timeout_ms ?? RUN_DEFAULT_TIMEOUT_MS;
  const run = {
    file: '/bin/sh',
    args: ['-c', args.command],
    cwd: cwd.path,
    env: commandEnv(process.env, ctx.runtimeDir),
    timeoutMs,
    signal: ctx.signal,
    headChars: RUN_HEAD_CHARS,
    tailChars: RUN_TAIL_CHARS,
    logDir: ctx.runtimeDir === undefined ? undefined : path.join(ctx.runtimeDir, 'outputs'),
  };
  const r =
    args.outside_sandbox || !ctx.sandbox.ok
      ? { ...(await runProcess(run)), notes: [] }
      : await runSandboxed(ctx.sandbox.sandbox, args.command, run, {
          // A movement that may not edit runs commands with the workspace read-only.
          writable: ctx.canEdit ? [cwd.root] : [],
          readable: [cwd.root, ...(ctx.runtimeDir === undefined ? [] : [path.join(ctx.runtimeDir, 'packages')])],
          network: args.network ?? [],
        });
  const notes = r.notes.length > 0 ? `\n${r.notes.join('\n')}` : '';
  const output = `${r.output === '' ? '(no output)' : r.output}${notes}`;
  if (r.spawnError) return fail(`could not start the command: ${r.spawnError.message}`);
  if (r.aborted) return fail(`the command was cancelled and stopped\n${output}`);
  if (r.timedOut) return fail(`the command timed out after ${seconds(timeoutMs)} and was stopped\n${output}`);
  const status = r.exitCode !== null ? `Exit code: ${r.exitCode}` : `Killed by signal ${r.exitSignal}`;
  return ok(`${status}\n${output}`);
}

/**
 * run_command's review of a call (permission.ts): outside the sandbox, without one, or with hosts the policy does not
 * list it always asks; a command the policy's rules cover runs; any other asks — unless the policy allows the tool
 * outright or a person granted it for the task.
 */
export function reviewCommand(args: RunCommandArgs, ctx: ToolContext, policy: WorkspaceToolPolicy): CallReview {
  const cwd = workingFolder(args, ctx);
  if (!cwd.ok) return { kind: 'refuse', message: cwd.error };
  const unsandboxed = mustAsk(args, ctx);
  const unlisted = (args.network ?? []).filter((h) => !policy.runCommandNetwork.includes(h));
  const summary = summarizeCommand(args, cwd.rel, unsandboxed);
  const display: CommandDisplay = {
    kind: 'command',
    command: args.command,
    cwd: cwd.rel,
    timeoutMs: args.timeout_ms ?? RUN_DEFAULT_TIMEOUT_MS,
    network: args.network ?? [],
    unsandboxed,
  };
  if (unsandboxed !== null || unlisted.length > 0) return { kind: 'ask', summary, display, always: true };
  return allowedWithoutApproval(args, policy) ? { kind: 'run' } : { kind: 'ask', summary, display };
}

const JSON_SCHEMAS = new Map<string, Record<string, unknown>>();

/**
 * The schema the model sees: `target` always there, its enum the policy's targets in name order (none: no enum), so
 * the bytes are the same for every job of a policy (spec 3.4). Derived once per set of names.
 */
export function runCommandJsonSchema(targets: readonly string[]): Record<string, unknown> {
  const key = JSON.stringify(targets);
  let schema = JSON_SCHEMAS.get(key);
  if (!schema) {
    const shown =
      targets.length === 0
        ? RunCommandArgs
        : RunCommandArgs.extend({
            target: z
              .enum(targets as [string, ...string[]])
              .optional()
              .describe(TARGET_DESCRIPTION),
          });
    const { $schema: _schema, ...rest } = z.toJSONSchema(shown, { io: 'input' }) as Record<string, unknown>;
    schema = rest;
    JSON_SCHEMAS.set(key, schema);
  }
  return schema;
}

/** The policy's target of that name, or why there is none (naming the known ones). */
function findTarget(
  policy: WorkspaceToolPolicy,
  name: string,
): { ok: true; target: SshTarget } | { ok: false; error: string } {
  const targets = policy.sshTargets ?? [];
  const target = targets.find((t) => t.name === name);
  if (target) return { ok: true, target };
  const known =
    targets.length === 0
      ? 'the workspace policy names no SSH targets (they are set under "ssh.targets" in .maestro/policy.json)'
      : `the workspace policy names: ${targets.map((t) => t.name).join(', ')}`;
  return { ok: false, error: `no SSH target named ${JSON.stringify(name)}: ${known}` };
}

/** A prefix rule that names the command's start denies it whatever follows (a deny must not be dodged by `;`). */
const denies = (command: string, rule: string) =>
  commandMatchesRule(command, rule) ||
  (rule.trim().endsWith(' *') && command.trim().startsWith(`${rule.trim().slice(0, -2).trimEnd()} `));

/** What the card says for a command on a target: the command, the machine, the folder there, the time limit. */
export function summarizeRemoteCommand(args: RunCommandArgs, target: SshTarget): string {
  const folder = args.cwd === undefined || args.cwd === '.' ? 'the login folder' : `${args.cwd}/`;
  return [
    `$ ${args.command}`,
    `(runs on ${where(target)} in ${folder}; stopped after ${seconds(args.timeout_ms ?? RUN_DEFAULT_TIMEOUT_MS)})`,
    `NOT sandboxed: it runs on ${target.name} with that account's full access.`,
  ].join('\n');
}

/**
 * A call with a target: refused when the policy does not name the target, when it asks for what only a local command
 * has (network, outside_sandbox) or when the target's `deny` covers it; run when its `allow` does; asked otherwise —
 * always, since nothing sandboxes it there: no tool-wide allow, task grant or Auto Prompter approval covers it.
 */
export function reviewRemoteCommand(args: RunCommandArgs, policy: WorkspaceToolPolicy): CallReview {
  const found = findTarget(policy, args.target ?? '');
  if (!found.ok) return { kind: 'refuse', message: found.error };
  const { target } = found;
  if (args.network !== undefined) {
    return {
      kind: 'refuse',
      message: `network is for commands on this machine; a command on SSH target "${target.name}" reaches what that machine reaches`,
    };
  }
  if (args.outside_sandbox !== undefined) {
    return {
      kind: 'refuse',
      message: `outside_sandbox is for commands on this machine; nothing sandboxes a command on SSH target "${target.name}"`,
    };
  }
  if (args.cwd !== undefined && /[\0\r\n]/.test(args.cwd)) return { kind: 'refuse', message: 'cwd must be one line' };
  const denied = target.deny.find((r) => denies(args.command, r));
  if (denied !== undefined) {
    return {
      kind: 'refuse',
      message: `the workspace policy denies this command on SSH target "${target.name}" (rule ${JSON.stringify(denied)})`,
    };
  }
  if (target.allow.some((r) => commandMatchesRule(args.command, r))) return { kind: 'run' };
  const display: CommandDisplay = {
    kind: 'command',
    command: args.command,
    cwd: args.cwd ?? '.',
    timeoutMs: args.timeout_ms ?? RUN_DEFAULT_TIMEOUT_MS,
    network: [],
    unsandboxed: null,
    target: { name: target.name, address: `${target.user}@${target.host}:${target.port}` },
  };
  return { kind: 'ask', summary: summarizeRemoteCommand(args, target), display, always: true };
}

/** Runs an allowed or approved call on its target, over the run's connection to it. */
export async function runRemoteCommand(
  args: RunCommandArgs,
  ctx: ToolContext,
  policy: WorkspaceToolPolicy,
  ssh: SshSessions | undefined,
): Promise<ToolOutcome> {
  const found = findTarget(policy, args.target ?? '');
  if (!found.ok) return fail(found.error);
  if (!ssh) return fail('this run has no SSH connections (commands on SSH targets run only in a job)');
  const timeoutMs = args.timeout_ms ?? RUN_DEFAULT_TIMEOUT_MS;
  const r = await ssh.run(found.target, {
    command: args.command,
    ...(args.cwd !== undefined ? { cwd: args.cwd } : {}),
    timeoutMs,
    signal: ctx.signal,
    headChars: RUN_HEAD_CHARS,
    tailChars: RUN_TAIL_CHARS,
    ...(ctx.runtimeDir === undefined ? {} : { logDir: path.join(ctx.runtimeDir, 'outputs') }),
  });
  const output = r.output === '' ? '(no output)' : r.output;
  if (r.connectError !== undefined) return fail(r.connectError);
  if (r.aborted) return fail(`the command was cancelled and stopped on ${found.target.name}\n${output}`);
  if (r.timedOut) {
    return fail(`the command timed out after ${seconds(timeoutMs)} and was stopped on ${found.target.name}\n${output}`);
  }
  if (r.dropped !== undefined) return fail(`${r.dropped}\n${output}`);
  const status = r.exitCode !== null ? `Exit code: ${r.exitCode}` : `Killed by signal ${r.exitSignal}`;
  return ok(`${status}\n${output}`);
}

/**
 * run_command under a Workspace Tool Policy (its command rules, the hosts commands may reach, its SSH targets);
 * `ssh`: the run's connections to those targets.
 */
export function runCommandTool(policy: WorkspaceToolPolicy, ssh?: SshSessions): ToolDef<RunCommandArgs> {
  return {
    name: 'run_command',
    description:
      'Run a shell command in the workspace folder and return its exit code and output. A person may have to approve it first.',
    parameters: RunCommandArgs,
    jsonSchema: runCommandJsonSchema((policy.sshTargets ?? []).map((t) => t.name)),
    readOnly: false,
    needs: ['run'],
    review: (args, ctx) =>
      args.target !== undefined ? reviewRemoteCommand(args, policy) : reviewCommand(args, ctx, policy),
    execute: (args, ctx) =>
      args.target !== undefined ? runRemoteCommand(args, ctx, policy, ssh) : runCommand(args, ctx),
  };
}
