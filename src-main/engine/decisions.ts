// Resuming a job that waited for people's decisions: each call that waited is answered now — an approved tool call
// runs for real, an approved package is installed, a denial becomes an Error result — and the loop goes on. An
// approved call runs at most once: its start is committed before it runs, and one that started but left no result
// (the host died while it ran) is answered with an Error instead of running again.
import type { PackageRequest } from '../../src-shared/entities';
import type { ChatMessage } from '../llm/types';
import { fail, ok } from '../tools/outcome';
import type { ToolContext, ToolResult } from '../tools/types';
import { BROWSER_HANDOFF, BROWSER_HANDOFF_RESUMED } from './browser-handoff-tool';
import { unansweredCalls } from './call-pairs';
import type { DecidedToolRequest, JobJournal } from './job-journal';
import type { JobRun } from './job-run';
import { SUBTASKS_DONE, WAIT_FOR_SUBTASKS } from './subtask-tool';
import { execute, type ToolCall } from './tool-dispatch';

export type Decision =
  | { kind: 'tool'; request: DecidedToolRequest }
  | { kind: 'package'; request: PackageRequest }
  /** The person replied to a browser_handoff (their comment woke the job and follows as a user message). */
  | { kind: 'browser_reply' }
  /** The job's subtasks ended (their notice follows as a user message). */
  | { kind: 'subtasks_done' }
  /** An MCP server refused the call's credentials before it ran; new ones were given, so it runs now. */
  | { kind: 'mcp_retry' };

export type PackageInstaller = (request: PackageRequest, signal: AbortSignal) => Promise<ToolResult>;

/** The answer to a denied call: with the person's reason when they gave one; the denial as data for the chat. */
export const denied = (reason: string | null): ToolResult => ({
  ...fail(
    reason === null
      ? 'the user denied this call. Do not repeat it; find another way or ask the user.'
      : `the user denied this call, saying: ${JSON.stringify(reason)}. Do not repeat it; take that into account, find another way or ask the user.`,
  ),
  denial: { by: 'person', reason },
});

/** The answer to an approved call that started before a restart and left no result. */
export function interruptedByRestart(what: string): ToolResult {
  return fail(
    `${what} was interrupted by a restart of MAESTRO and did not finish; its effects are unknown (it may have ` +
      'done part of its work). Check the workspace; if it still needs to run, ask again.',
  );
}

/** The job's decided requests by call id (pending ones are not decisions yet). */
export function decidedCalls(journal: JobJournal): Map<string, Decision> {
  const decided = new Map<string, Decision>();
  for (const request of journal.toolRequests()) {
    if (request.status !== 'pending') decided.set(request.callId, { kind: 'tool', request });
  }
  for (const request of journal.packageRequests()) {
    if (request.status !== 'pending') decided.set(request.callId, { kind: 'package', request });
  }
  return decided;
}

/** The calls an MCP server refused for their credentials, from the notices of the job's parks. */
export function authRefusedCalls(journal: JobJournal): Set<string> {
  return new Set(
    journal.jobComments().flatMap((c) => (c.notice?.code === 'mcp_auth' && c.notice.callId ? [c.notice.callId] : [])),
  );
}

/**
 * The unanswered calls of `messages` that what woke the job answers: a browser_handoff when the person replied (an
 * interjection waits for the job), a wait_for_subtasks when the last subtask ended (a Notify Invoke), an MCP call
 * its server refused for its credentials (the job parked on them, and goes on once new ones are given). Without that
 * (a crash before the job parked) the call is dropped and can be made again.
 */
export function addWakeAnswers(
  decided: Map<string, Decision>,
  messages: readonly ChatMessage[],
  woken: { replied: boolean; notified: boolean; authRefused: ReadonlySet<string> },
) {
  for (const call of unansweredCalls(messages)) {
    if (woken.replied && call.name === BROWSER_HANDOFF) decided.set(call.id, { kind: 'browser_reply' });
    if (woken.notified && call.name === WAIT_FOR_SUBTASKS) decided.set(call.id, { kind: 'subtasks_done' });
    if (woken.authRefused.has(call.id)) decided.set(call.id, { kind: 'mcp_retry' });
  }
}

export async function answerDecidedCalls(
  run: JobRun,
  ctx: ToolContext,
  decided: ReadonlyMap<string, Decision>,
  install: PackageInstaller | undefined,
): Promise<number> {
  let answered = 0;
  for (const call of unansweredCalls(run.conversation.messages)) {
    const decision = decided.get(call.id);
    if (!decision) continue;
    run.answer(call, await outcomeOf(run, call, decision, ctx, install));
    answered++;
  }
  return answered;
}

async function outcomeOf(
  run: JobRun,
  call: ToolCall,
  decision: Decision,
  ctx: ToolContext,
  install: PackageInstaller | undefined,
): Promise<ToolResult> {
  if (decision.kind === 'browser_reply') return ok(BROWSER_HANDOFF_RESUMED);
  if (decision.kind === 'subtasks_done') return ok(SUBTASKS_DONE);
  if (decision.kind === 'mcp_retry') return retryRefused(call, run, ctx);
  if (decision.request.status === 'denied') return denied(decision.request.denyReason);
  if (decision.kind === 'package') {
    if (!install) return fail('packages cannot be installed by this host');
    const { manager, name } = decision.request;
    if (!run.journal.markPackageStarted(decision.request.id)) {
      return interruptedByRestart(`the approved install of ${name} (${manager})`);
    }
    try {
      return await install(decision.request, ctx.signal);
    } catch (error) {
      return fail(`installing ${decision.request.name} failed: ${(error as Error).message}`);
    }
  }
  const tool = run.tools.get(call.name);
  if (!tool) return fail(`${call.name} is not available to this job any more`);
  // The args come back from the DB: checked again before anything runs.
  const args = tool.parameters.safeParse(decision.request.args);
  if (!args.success) {
    return fail(`${call.name}: the approved arguments are not valid (${args.error.issues[0]?.message ?? 'unknown'})`);
  }
  if (!run.journal.markToolCallStarted(decision.request.id)) {
    return interruptedByRestart(`the approved ${call.name} call (${firstLine(decision.request.summary)})`);
  }
  const { outcome } = await execute(call, tool, args.data, { ...ctx, approvedByPerson: true });
  return outcome.kind === 'result' ? outcome : fail(`${call.name} asked to wait again`);
}

/**
 * Runs again a call its MCP server refused for its credentials (it was permitted then, and never ran). Refused again
 * by the new ones, it is answered saying so, the server marked as refusing them: its next call parks the job again.
 */
async function retryRefused(call: ToolCall, run: JobRun, ctx: ToolContext): Promise<ToolResult> {
  const tool = run.tools.get(call.name);
  if (!tool) return fail(`${call.name} is not available to this job any more`);
  let raw: unknown;
  try {
    raw = JSON.parse(call.arguments || '{}');
  } catch {
    return fail(`${call.name}: its arguments are not JSON`);
  }
  const args = tool.parameters.safeParse(raw);
  if (!args.success) return fail(`${call.name}: its arguments are not valid (${args.error.issues[0]?.message})`);
  const { outcome } = await execute(call, tool, args.data, ctx);
  if (outcome.kind === 'result') return outcome;
  return fail(
    outcome.mcpAuth
      ? `${call.name} did not run: its MCP server refused the new credentials too; the user has been told`
      : `${call.name} asked to wait again`,
  );
}

const firstLine = (text: string) => (text.split('\n', 1)[0] ?? '').slice(0, 200);
