// Task grants, decided purely from a call's tool and arguments: what a grant of a call would name (its target), the
// prefix rules a command card offers, whether a person's choice fits the call it was made on, and whether a grant
// covers a later call. A grant never covers more than its kind says: `exact` the same command / file / agent /
// arguments, `prefix` commands its rule matches (no chaining after the prefix), `tool` any call of the tool.
import path from 'node:path';
import { assertNever } from '../../src-shared/assert-never';
import type { GrantChoice, GrantOptions, GrantScope, GrantTarget } from '../../src-shared/grants';
import { A2A_SEND_TOOL } from './names';
import { commandMatchesRule, SHELL_META } from './run-command';

export type { GrantScope } from '../../src-shared/grants';

const PATH_TOOLS: readonly string[] = ['read_file', 'list_dir', 'write_file', 'edit_file', 'grep'];
/** Prefix rules a command card offers: of its first two or three words (one for a one-word command). */
const PREFIX_WORDS_MAX = 3;
/** A word a prefix rule may be made of: no quotes, globs or shell syntax. */
const PLAIN_WORD = /^[A-Za-z0-9._/@:=+,%^~-]+$/;

const field = (args: unknown, name: string): unknown =>
  typeof args === 'object' && args !== null ? (args as Record<string, unknown>)[name] : undefined;

/** A workspace-relative path as written, lexically normalised (`./a/../b/` → `b`), so spellings of one path agree. */
export function normalPath(p: string): string {
  const n = path.posix.normalize(p.replaceAll('\\', '/'));
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

/**
 * What an `exact` grant of this call names: the command line; the path of a file tool (grep: the folder it searches);
 * the agent of a2a_send; for any other tool (MCP tools, delegate, …) the call's arguments as JSON, as the model gave
 * them — so a grant never stretches to arguments the card did not show.
 */
export function grantTarget(tool: string, args: unknown): GrantTarget {
  const command = field(args, 'command');
  // A command on an SSH target is no local command: a prefix grant made from its card must not widen local ones.
  const remote = field(args, 'target') !== undefined;
  if (tool === 'run_command' && typeof command === 'string' && !remote)
    return { kind: 'command', value: command.trim() };
  if (PATH_TOOLS.includes(tool)) {
    const p = field(args, 'path') ?? (tool === 'grep' ? '.' : undefined);
    if (typeof p === 'string') return { kind: 'path', value: normalPath(p) };
  }
  const agent = field(args, 'agent');
  if (tool === A2A_SEND_TOOL && typeof agent === 'string') return { kind: 'agent', value: agent };
  return { kind: 'call', value: JSON.stringify(args ?? null) };
}

/** Whether a rule is a prefix rule a grant may hold: `<words> *`, the words free of shell syntax. */
function prefixProblem(rule: string): string | null {
  const r = rule.trim();
  if (!r.endsWith(' *') || r.slice(0, -2).trim() === '')
    return `a prefix rule is words followed by " *" (e.g. "git diff *"), not "${rule}"`;
  if (SHELL_META.test(r.slice(0, -2))) {
    return 'a prefix rule may not contain ; & | < > ` $ ( ) \\ or a line break';
  }
  return null;
}

/** The prefix rules a card offers for a command, narrowest first; each one covers the command. */
export function prefixChoices(command: string): string[] {
  const words = command.trim().split(' ');
  const plain: string[] = [];
  for (const w of words.slice(0, PREFIX_WORDS_MAX)) {
    if (!PLAIN_WORD.test(w)) break;
    plain.push(w);
  }
  const shortest = words.length === 1 ? 1 : 2;
  const rules: string[] = [];
  for (let k = plain.length; k >= shortest; k--) {
    const rule = `${plain.slice(0, k).join(' ')} *`;
    if (commandMatchesRule(command, rule)) rules.push(rule);
  }
  return rules;
}

/** What a card offers "for this task" for a call. */
export function grantOptions(tool: string, args: unknown): GrantOptions {
  const { kind, value } = grantTarget(tool, args);
  return {
    target: { kind, value: kind === 'call' ? null : value },
    prefixes: kind === 'command' ? prefixChoices(value) : [],
  };
}

/**
 * The grant a person's choice makes of the call they saw, or why it cannot be made (the message for a 400): a prefix
 * rule only for a command, only words followed by ` *`, and only one that covers the command shown.
 */
export function grantOf(
  tool: string,
  args: unknown,
  choice: GrantChoice,
): { ok: true; grant: GrantScope } | { ok: false; message: string } {
  switch (choice.kind) {
    case 'exact':
      return { ok: true, grant: { tool, kind: 'exact', target: grantTarget(tool, args), rule: null } };
    case 'tool':
      return { ok: true, grant: { tool, kind: 'tool', target: null, rule: null } };
    case 'prefix': {
      const target = grantTarget(tool, args);
      if (target.kind !== 'command')
        return { ok: false, message: `a prefix rule is for run_command only, not ${tool}` };
      const problem = prefixProblem(choice.rule);
      if (problem) return { ok: false, message: problem };
      if (!commandMatchesRule(target.value, choice.rule)) {
        return {
          ok: false,
          message: `the rule "${choice.rule}" does not cover the command the card showed (${JSON.stringify(target.value)})`,
        };
      }
      return { ok: true, grant: { tool, kind: 'prefix', target: null, rule: choice.rule.trim() } };
    }
    default:
      return assertNever(choice, 'grant choice');
  }
}

/** Whether a grant covers a call: the same tool, and the call within what the grant's kind names. */
export function grantCovers(grant: GrantScope, tool: string, args: unknown): boolean {
  if (grant.tool !== tool) return false;
  switch (grant.kind) {
    case 'tool':
      return true;
    case 'prefix': {
      const target = grantTarget(tool, args);
      return (
        target.kind === 'command' &&
        grant.rule !== null &&
        prefixProblem(grant.rule) === null &&
        commandMatchesRule(target.value, grant.rule)
      );
    }
    case 'exact': {
      const target = grantTarget(tool, args);
      return grant.target !== null && grant.target.kind === target.kind && grant.target.value === target.value;
    }
    default:
      return assertNever(grant.kind, 'grant kind');
  }
}
