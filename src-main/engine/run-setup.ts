// Opening a piece run (runPiece's first half): its model, tools, guards and log set up (RunSetup), the Invoke it
// opens, and its conversation seeded, replayed or resumed — what the movement loop (piece-runner.ts) then runs on.

import { CodedError } from '../../src-shared/errors';
import { createPackageInstaller } from '../tools/install-package';
import type { ToolRules } from '../tools/permission';
import { policyFile } from '../tools/policy';
import type { LimitsFile } from '../tools/policy-schema';
import type { AnyToolDef } from '../tools/types';
import { browserHandoffTool } from './browser-handoff-tool';
import { dropUnanswered } from './call-pairs';
import { type ChatMessage, Conversation } from './conversation';
import { addWakeAnswers, answerDecidedCalls, authRefusedCalls, decidedCalls } from './decisions';
import { delegateTool } from './delegate-tool';
import { dynamicContext, firstUserMessage, jobInstruction, subtaskNotice, taskContext } from './dynamic-context';
import { LoopGuards } from './guards/loop-guards';
import { freshLoopState } from './guards/loop-state';
import type { EngineJob, JobJournal, JobJournals } from './job-journal';
import { type EngineOptions, JobRun, type RunCheckpoints } from './job-run';
import { JobStream } from './job-stream';
import type { LlmPort } from './llm-port';
import { MovementBriefs, withInstruction } from './movement-brief';
import type { PieceRunContext, PieceRunResult } from './piece-result';
import type { MovementDefinition } from './pieces/schema';
import { staticPreamble, systemMessage } from './prompt';
import { allReplayableThreads, isSamePieceContinuation } from './replay';
import { rewoundJobIds } from './rewound';
import { RunLog } from './run-log';
import { selectFacetsTool } from './select-facets-tool';
import { spendLimits } from './spend-limits';
import { createSubtaskTool, waitForSubtasksTool } from './subtask-tool';
import { transitionArgs } from './terminal-tools';
import { buildToolSpecs, pieceTools } from './tool-specs';
import { fileTranscript, type TaskTranscript } from './transcripts';
import { type WriteBehindJournal, writeBehind } from './write-behind';

export interface JobTools {
  tools: readonly AnyToolDef[];
  allows(name: string): boolean;
  /** What the dispatcher applies to every call (the policy's rules, the task's grants). */
  rules: ToolRules;
  /** The policy's spend limits (subtasks, delegate depth), when it sets any. */
  limits?: LimitsFile;
  /** Ends what the tools hold for the run (SSH connections): called once when the run ends or parks. */
  close?(): Promise<void>;
}

export interface PieceRunnerDeps {
  /** Opens the journal a job's run records through (jobs/journal.ts over the store). */
  journals: JobJournals;
  llmFor(profile: string | null): LlmPort;
  /** The regular tools the Workspace Tool Policy allows for this job, and whether it allows a tool by name. */
  toolsFor(ctx: PieceRunContext, journal: JobJournal): JobTools;
  options: EngineOptions;
  /** Whether a piece exists for this workspace (subtasks name one). */
  pieceExists?: (pieceId: string, workspacePath: string) => boolean;
  now?: () => Date;
}

/** What a piece run needs besides the context: its journal, its run, its briefs and checkpoints, and the clock. */
export interface RunSetup {
  journal: WriteBehindJournal;
  run: JobRun;
  briefs: MovementBriefs;
  checkpoints: RunCheckpoints | null;
  /** The regular tools, in the order the model sees them. */
  tools: readonly AnyToolDef[];
  /** The task instruction with what this job adds (jobInstruction). */
  instruction: string;
  now: () => Date;
  /** Ends what the job's tools hold (JobTools.close). */
  closeTools: () => Promise<void>;
  /** The task's transcript, where the store keeps it (the conversation's, and the points kept at each Invoke). */
  transcript: TaskTranscript;
}

/** The run's model, tools, guards and log; a missing profile or a broken policy ends the run before it starts. */
export async function openRun(
  deps: PieceRunnerDeps,
  ctx: PieceRunContext,
  start: MovementDefinition,
): Promise<RunSetup | PieceRunResult> {
  const { job, task, piece } = ctx;
  const now = deps.now ?? (() => new Date());
  const journal = writeBehind(deps.journals(task, job));
  let llm: LlmPort;
  try {
    llm = deps.llmFor(job.profile);
  } catch (error) {
    // engine.ts's NoProfileError, known by its code (engine.ts imports this file).
    const missing = error instanceof CodedError && error.code === 'no_llm_profile';
    return { ...fatal((error as Error).message, start), ...(missing ? { code: 'profile_missing' as const } : {}) };
  }
  let jobTools: JobTools;
  try {
    jobTools = deps.toolsFor(ctx, journal);
  } catch (error) {
    return fatal((error as Error).message, start);
  }
  let run: JobRun | undefined;
  const limitsFile = policyFile(ctx.workspacePath);
  const limits = spendLimits(piece, jobTools.limits, limitsFile);
  const pieceExists = (id: string) => deps.pieceExists?.(id, ctx.workspacePath) ?? id === piece.id;
  const engineTools = [
    createSubtaskTool(journal, pieceExists, limits, limitsFile),
    waitForSubtasksTool(journal),
    browserHandoffTool,
    // Injected only when the piece allows delegation (below its depth limit); otherwise a call is an unknown tool.
    ...(piece.delegate.allowed && limits.delegateDepth.value > 0
      ? [delegateTool(() => run as JobRun, limits.delegateDepth, limitsFile)]
      : []),
  ].filter((t) => jobTools.allows(t.name));
  // MCP tools come last, in name order, so the built-ins' prefix of `tools` is the same with or without them.
  const mcpTools = (ctx.mcpTools ?? []).filter((t) => jobTools.allows(t.name));
  // select_facets only reads the piece's own facet pools: no policy entry, there exactly when a movement offers one.
  const facetTool = piece.movements.some((m) => (m.facetPools?.length ?? 0) > 0) ? [selectFacetsTool] : [];
  const regular = pieceTools(piece, [...jobTools.tools, ...engineTools, ...facetTool, ...mcpTools]);
  const checkpoints = deps.options.checkpoints ? await deps.options.checkpoints.forJob(task, job) : null;
  const log = new RunLog(journal);
  const transcript = journal.transcript?.(ctx.runtimeDir) ?? fileTranscript(ctx.runtimeDir);
  run = new JobRun({
    journal,
    guards: new LoopGuards(journal.guards() ?? freshLoopState(), piece, deps.options.limits),
    checkpoints,
    piece,
    workspacePath: ctx.workspacePath,
    runtimeDir: ctx.runtimeDir,
    signal: ctx.signal,
    llm,
    conversation: Conversation.open(transcript, job.id, now),
    tools: regular,
    rules: jobTools.rules,
    toolSpecs: buildToolSpecs(piece, regular),
    transitionArgs: transitionArgs(piece),
    log,
    stream: new JobStream((event) => log.transient(event), task.id, job.id, deps.options.streamIntervalMs),
    options: deps.options,
  });
  const instruction = jobInstruction(journal, ctx.runtimeDir);
  const closeTools = async () => {
    // Never throws: a connection that will not close is not the job's outcome.
    await jobTools.close?.().catch(() => undefined);
  };
  return {
    journal,
    run,
    briefs: new MovementBriefs(journal, piece),
    checkpoints,
    tools: regular,
    instruction,
    now,
    closeTools,
    transcript,
  };
}

/**
 * The Invoke a job opens (a Send, a Notify from its subtasks, …), with the conversation and the workspace as it found
 * them (rewind and fork go back to them). Returns the subtasks' notice when they woke it.
 */
export async function openInvoke(
  { journal, run, checkpoints, instruction, transcript }: RunSetup,
  ctx: PieceRunContext,
): Promise<string | null> {
  const { job } = ctx;
  // A parent woken by its subtasks hears their results (Invoke Notify → SystemTurn); any other start is the task.
  const notice = job.pendingInvoke === 'Notify' ? subtaskNotice(journal) : null;
  if (!job.pendingInvoke) return notice;
  run.log.invoke(job.pendingInvoke, notice ?? instruction);
  const at = journal.lastInvokeSeq();
  if (at !== null) await transcript.keep(String(at));
  journal.step(() => {
    journal.invokeOpened();
    run.guards.newInvoke();
    run.saveGuards();
  });
  await checkpoints?.atInvoke();
  return notice;
}

/**
 * The same job coming back (retry, approval) continues its own thread, the decided calls answered; a Continue or a
 * fork's first job replays the earlier threads; any other job starts a new thread.
 */
export async function startConversation(
  setup: RunSetup,
  ctx: PieceRunContext,
  start: MovementDefinition,
  notice: string | null,
): Promise<void> {
  const { journal, run } = setup;
  const decided = decidedCalls(journal);
  const woken = {
    replied: journal.undeliveredInterjections().length > 0,
    notified: notice !== null,
    authRefused: authRefusedCalls(journal),
  };
  const resumed = run.conversation.resumeOwnThread((m) => {
    addWakeAnswers(decided, m, woken);
    return dropUnanswered(m, new Set(decided.keys()));
  });
  if (!resumed) return seedConversation(setup, ctx, start);
  // After decisions the answers continue the conversation; after a retry or a crash a note says what happened.
  const installer = createPackageInstaller(() => ctx.runtimeDir, { sandbox: run.options.sandbox });
  const answered = await answerDecidedCalls(run, run.toolContext(start), decided, installer);
  if (notice) run.queueNote(notice, false);
  else if (answered === 0) run.queueNote(`(Resumed in movement ${start.name}.)`);
}

/** A new thread: the system message, and the first user message — replayed threads before it for a Continue. */
function seedConversation(setup: RunSetup, ctx: PieceRunContext, start: MovementDefinition) {
  const { journal, run, briefs, now, instruction } = setup;
  const { job, task, piece } = ctx;
  const system = systemMessage(staticPreamble(piece, setup.tools, ctx.workspacePath), start);
  // The start movement's instruction, filled now, ends the first user message (the system message stays static).
  const counts = run.guards.resumesIn(start.name)
    ? run.guards.movements.current(start.name)
    : run.guards.movements.upcoming(start.name);
  const startInstruction = briefs.instruction(start, counts);
  const firstUser = (dynamic: string) =>
    withInstruction(firstUserMessage(dynamic, instruction), start, startInstruction);
  const contextWith = (handoff: string | null) =>
    dynamicContext(task, ctx.workspacePath, now(), handoff, taskContext(journal));
  const previous = job.continuedFromJobId ? journal.otherJob(job.continuedFromJobId) : undefined;
  // A fork's first job goes on from the conversation it was forked with, as a Continue does.
  const forkStart = !previous && task.forkedFrom != null && journal.taskJobs()[0]?.id === job.id;
  if (!previous && !forkStart) {
    run.conversation.seed(system, firstUser(contextWith(null)));
    return;
  }
  const replayed = mergeAdjacentUserMessages(
    allReplayableThreads(run.conversation.priorLines(), {
      keepTransitions: previous ? isSamePieceContinuation(previous.pieceId, job.pieceId) : true,
    }),
  );
  // The handoff goes into the dynamic context only when no turn could be replayed (spec 3.1), and never a rewound
  // job's (its turns are out of the transcript already: P9.21).
  const rewound = previous ? rewoundJobIds(journal) : new Set<string>();
  const handoff = replayed.length === 0 && previous && !rewound.has(previous.id) ? handoffOf(previous) : null;
  const user = firstUser(contextWith(handoff));
  if (replayed.at(-1)?.role === 'user') {
    const last = replayed.pop() as { content: string };
    run.conversation.seedContinuation(system, replayed, `${last.content}\n\n${user}`);
  } else run.conversation.seedContinuation(system, replayed, user);
}

/** What the previous job left, for a Continue with nothing to replay. */
const handoffOf = (previous: EngineJob): string =>
  `The previous job ended ${previous.status}${previous.result ? `: ${previous.result}` : previous.error ? `: ${previous.error}` : ''}.`;

/** Joins user messages that would follow each other (replayed threads can end and begin with one) into one. */
export function mergeAdjacentUserMessages(messages: ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const last = out.at(-1);
    if (m.role === 'user' && last?.role === 'user')
      out[out.length - 1] = { role: 'user', content: `${last.content}\n\n${m.content}` };
    else out.push(m);
  }
  return out;
}

/** The run ends in `movement` with an error a retry would not mend (no profile, a broken policy, a guard's limit). */
export const fatal = (message: string, movement: MovementDefinition): PieceRunResult => ({
  kind: 'error',
  message,
  retryable: false,
  movement: movement.name,
});
