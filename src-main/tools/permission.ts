// One permission model for every tool — built-in, engine, MCP: the dispatcher decides whether a checked call runs,
// asks a person, or is refused, from (in this order) the Workspace Tool Policy's rule for the tool's name (a task
// grant that covers the call counts as allow), the movement's `edit: false` for tools that edit, a one-time approval
// (the Auto Prompter), and the tool's own review of the call (run_command: its command rules, the sandbox, the hosts
// it needs; an MCP tool: its annotations, which only ever add asking). What always asks is never covered by a rule or
// a grant. A tool's execute only ever runs a call that was allowed or approved.
import { grantOptions } from './grants';
import { fail } from './outcome';
import type { AnyToolDef, CallReview, ToolContext, ToolOutcome } from './types';

/** The policy's say on a call (a task grant that covers it is `allow`); undefined: the tool's own review decides. */
export type ToolRule = 'allow' | 'ask' | 'deny' | undefined;

export interface ToolRules {
  /** The rule for this call of the tool: `allow` when a grant of the task covers it, else the policy's for the name. */
  ruleFor(name: string, args: unknown): ToolRule;
}

/** No policy (tests that bring their own tools): every call is up to its tool. */
export const NO_RULES: ToolRules = { ruleFor: () => undefined };

const RUN: CallReview = { kind: 'run' };
const SUMMARY_MAX = 2000;

/** What an approval card shows for a call of a tool without a summary of its own: its name and arguments. */
export function callSummary(name: string, args: unknown): string {
  const json = JSON.stringify(args, null, 2) ?? '{}';
  const shown = json.length <= SUMMARY_MAX ? json : `${json.slice(0, SUMMARY_MAX)}\n… (${json.length} characters)`;
  return `${name}\n${shown}`;
}

export function decideCall(
  tool: AnyToolDef,
  args: unknown,
  ctx: ToolContext,
  rule: ToolRule,
  approvedOnce: boolean,
): CallReview {
  if (rule === 'deny') return { kind: 'refuse', message: `the workspace policy denies ${tool.name}` };
  if (!ctx.canEdit && tool.needs?.includes('edit')) {
    return { kind: 'refuse', message: `${tool.name} changes files, and this movement may not edit (edit: false)` };
  }
  const review = tool.review?.(args, ctx) ?? RUN;
  // What always asks (outside the sandbox, unlisted hosts, a file that runs code outside the sandbox) is a person's to
  // allow, there and then: no policy rule, task grant or Auto Prompter approval covers it.
  if (review.kind === 'refuse' || (review.kind === 'ask' && review.always)) return review;
  if (approvedOnce || rule === 'allow') return RUN;
  if (rule === 'ask') {
    if (review.kind === 'ask') return review;
    return { kind: 'ask', summary: review.askSummary?.() ?? callSummary(tool.name, args) };
  }
  return review;
}

/**
 * The outcome a call gets instead of running — an Error when refused, a wait for a person's decision when it asks —
 * or null when it may run now.
 */
export function withheld(
  tool: AnyToolDef,
  args: unknown,
  ctx: ToolContext,
  rule: ToolRule,
  approvedOnce = false,
): ToolOutcome | null {
  const decided = decideCall(tool, args, ctx, rule, approvedOnce);
  if (decided.kind === 'refuse') return fail(decided.message);
  if (decided.kind === 'ask') {
    const { summary, display } = decided;
    const request = { tool: tool.name, args, summary, grantOptions: grantOptions(tool.name, args) };
    return { kind: 'wait', toolRequest: { ...request, ...(display ? { display } : {}) } };
  }
  return null;
}
