// run_command { command, cwd?, timeout_ms? }: a shell command in the workspace. It asks a person first (a tool
// request with a summary they can judge, P4.34) unless the Workspace Tool Policy or a task grant allows it (P4.35);
// runApproved runs it after the approval.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fail, ok } from './outcome';
import { commandEnv } from './package-paths';
import type { WorkspaceToolPolicy } from './policy-schema';
import { runProcess } from './process-run';
import { resolveInWorkspace } from './sandbox';
import type { ToolContext, ToolDef, ToolOutcome } from './types';

export const RUN_DEFAULT_TIMEOUT_MS = 120_000;
export const RUN_MAX_TIMEOUT_MS = 600_000;
export const RUN_HEAD_CHARS = 10_000;
export const RUN_TAIL_CHARS = 20_000;

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
});
export type RunCommandArgs = z.infer<typeof RunCommandArgs>;

/** Characters that would let arguments after an allowed prefix start another command or substitute one. */
const SHELL_META = /[;&|<>`$()\\\r\n]/;

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

/** The policy hook: whether the Workspace Tool Policy lets this call run without asking. */
export function allowedWithoutApproval(args: Pick<RunCommandArgs, 'command'>, policy: WorkspaceToolPolicy): boolean {
  return policy.runCommandAllow.some((rule) => commandMatchesRule(args.command, rule));
}

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

/** What the approval card says: the exact command, where it runs, and how long it may take. */
export function summarizeCommand(args: RunCommandArgs, rel: string): string {
  const where = rel === '.' ? 'the workspace folder' : `${rel}/ in the workspace folder`;
  return `$ ${args.command}\n(runs in ${where}; stopped after ${seconds(args.timeout_ms ?? RUN_DEFAULT_TIMEOUT_MS)})`;
}

/** Runs the command now: /bin/sh -c in the sandboxed cwd, with a timeout and the task's packages on its paths. */
export async function runCommand(args: RunCommandArgs, ctx: ToolContext): Promise<ToolOutcome> {
  const cwd = workingFolder(args, ctx);
  if (!cwd.ok) return fail(cwd.error);
  const timeoutMs = args.timeout_ms ?? RUN_DEFAULT_TIMEOUT_MS;
  const r = await runProcess({
    file: '/bin/sh',
    args: ['-c', args.command],
    cwd: cwd.path,
    env: commandEnv(process.env, ctx.runtimeDir),
    timeoutMs,
    signal: ctx.signal,
    headChars: RUN_HEAD_CHARS,
    tailChars: RUN_TAIL_CHARS,
    logDir: ctx.runtimeDir === undefined ? undefined : path.join(ctx.runtimeDir, 'outputs'),
  });
  const output = r.output === '' ? '(no output)' : r.output;
  if (r.spawnError) return fail(`could not start /bin/sh: ${r.spawnError.message}`);
  if (r.aborted) return fail(`the command was cancelled and stopped\n${output}`);
  if (r.timedOut) return fail(`the command timed out after ${seconds(timeoutMs)} and was stopped\n${output}`);
  const status = r.exitCode !== null ? `Exit code: ${r.exitCode}` : `Killed by signal ${r.exitSignal}`;
  return ok(`${status}\n${output}`);
}

export interface RunCommandOptions {
  /** The Workspace Tool Policy; its run_command rules let matching commands run without asking. */
  policy: WorkspaceToolPolicy;
  /** A person approved run_command with scope `task` in this task: every call runs without asking (P7.04). */
  granted: boolean;
}

export function runCommandTool(options: RunCommandOptions): ToolDef<RunCommandArgs> {
  return {
    name: 'run_command',
    description:
      'Run a shell command in the workspace folder and return its exit code and output. A person may have to approve it first.',
    parameters: RunCommandArgs,
    readOnly: false,
    async execute(args, ctx) {
      if (options.granted || allowedWithoutApproval(args, options.policy)) return runCommand(args, ctx);
      const cwd = workingFolder(args, ctx);
      if (!cwd.ok) return fail(cwd.error);
      return { kind: 'wait', toolRequest: { tool: 'run_command', args, summary: summarizeCommand(args, cwd.rel) } };
    },
    // The args come back from the DB: checked again before anything runs.
    async runApproved(args, ctx) {
      const parsed = RunCommandArgs.safeParse(args);
      if (!parsed.success)
        return fail(`run_command: the approved arguments are not valid (${parsed.error.issues[0]?.message})`);
      return runCommand(parsed.data, ctx);
    },
  };
}
