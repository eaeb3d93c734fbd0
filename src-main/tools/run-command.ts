// run_command { command, cwd?, timeout_ms?, network?, outside_sandbox? }: a shell command in the workspace, run in
// the OS sandbox (os-sandbox.ts). It asks a person first (a tool request with a summary they can judge, P4.34) unless
// the Workspace Tool Policy or a task grant allows it (P4.35) — and an allow only ever means "runs in the sandbox
// without asking": without an OS sandbox every command asks, and so does one that needs a host the policy does not
// list, or that asks to run outside the sandbox. The dispatcher decides (permission.ts) from reviewCommand.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { CommandDisplay } from '../../src-shared/entities';
import { fail, ok } from './outcome';
import { commandEnv } from './package-paths';
import type { WorkspaceToolPolicy } from './policy-schema';
import { runProcess } from './process-run';
import { resolveInWorkspace } from './sandbox';
import { runSandboxed } from './sandboxed-run';
import type { CallReview, ToolContext, ToolDef, ToolOutcome } from './types';

export const RUN_DEFAULT_TIMEOUT_MS = 120_000;
export const RUN_MAX_TIMEOUT_MS = 600_000;
export const RUN_HEAD_CHARS = 10_000;
export const RUN_TAIL_CHARS = 20_000;

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

/** run_command under a Workspace Tool Policy (its command rules and the hosts commands may reach). */
export function runCommandTool(policy: WorkspaceToolPolicy): ToolDef<RunCommandArgs> {
  return {
    name: 'run_command',
    description:
      'Run a shell command in the workspace folder and return its exit code and output. A person may have to approve it first.',
    parameters: RunCommandArgs,
    readOnly: false,
    needs: ['run'],
    review: (args, ctx) => reviewCommand(args, ctx, policy),
    execute: runCommand,
  };
}
