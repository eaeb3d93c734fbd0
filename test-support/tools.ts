// Test support for the tools: a real temp workspace (with a sibling folder outside it) and a ToolContext for it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { hiddenPaths, openSandbox, type SandboxChoice } from '../src-main/tools/os-sandbox';
import { type ToolRule, withheld } from '../src-main/tools/permission';
import type { AnyToolDef, ToolContext, ToolDef, ToolOutcome } from '../src-main/tools/types';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

export interface TempWorkspace {
  /** The workspace folder (a real path). */
  ws: string;
  /** A folder next to it, outside the workspace. */
  outside: string;
  /** Writes a file below the workspace, creating folders. */
  put(rel: string, content: string | Uint8Array): string;
  ctx(overrides?: Partial<ToolContext>): ToolContext;
}

export function tempWorkspace(): TempWorkspace {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-tools-')));
  made.push(base);
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(ws);
  fs.mkdirSync(outside);
  return {
    ws,
    outside,
    put(rel, content) {
      const file = path.join(ws, rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      return file;
    },
    ctx: (overrides) => ({
      taskId: 'task_1',
      jobId: 'job_1',
      workspacePath: ws,
      canEdit: true,
      signal: new AbortController().signal,
      sandbox: { ok: false, reason: 'this test gives no OS sandbox' },
      ...overrides,
    }),
  };
}

/**
 * The machine's OS sandbox (bubblewrap on Linux; `.ci/run` installs it), for tests of commands that run without
 * asking: only a sandboxed command ever does.
 */
export const machineSandbox: SandboxChoice = openSandbox(hiddenPaths([]));

/**
 * An OS sandbox as a decision sees it (permission.ts only asks whether there is one): for tables of what a call gets,
 * which are pure and must hold on every machine. It never runs anything — a test that runs a command needs the
 * machine's (`machineSandbox`, skipped loudly by `withoutSandbox` where there is none).
 */
export const DECLARED_SANDBOX: SandboxChoice = {
  ok: true,
  sandbox: {
    kind: 'bubblewrap',
    wrap: () => Promise.reject(new Error('DECLARED_SANDBOX only answers decisions; this test ran a command')),
  },
};

/**
 * For `it.skipIf` / `describe.skipIf` of a test that truly runs a sandboxed command: true where the machine has no OS
 * sandbox, and then it says so on the console, so a skip is never silent.
 */
export function withoutSandbox(what: string): boolean {
  if (machineSandbox.ok) return false;
  console.warn(`SKIPPED ${what}: no OS sandbox on this machine (${machineSandbox.reason})`);
  return true;
}

/** A call of `tool` as the dispatcher makes it: withheld (refused, or waiting for a person) or run. */
export async function dispatchCall<P>(
  tool: ToolDef<P>,
  args: P,
  ctx: ToolContext,
  rule: ToolRule = undefined,
): Promise<ToolOutcome> {
  return withheld(tool as AnyToolDef, args, ctx, rule) ?? tool.execute(args, ctx);
}

/** The text of a result outcome (fails the test on a wait). */
export function text(outcome: ToolOutcome): string {
  if (outcome.kind !== 'result') throw new Error(`expected a result, got ${JSON.stringify(outcome)}`);
  return outcome.content;
}

/** Every file below a folder with its content, to prove that nothing was touched. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const full = path.join(e.parentPath, e.name);
    const rel = path.relative(dir, full);
    out[rel] = e.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : e.isFile() ? fs.readFileSync(full, 'utf8') : '/';
  }
  return out;
}
