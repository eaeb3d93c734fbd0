// runPiece (spec §2): set up the run (log, conversation, tools), choose the start movement
// (resume > override > piece start), then loop movements under the loop/revisit/cancel guards until a movement
// result ends the run as a PieceRunResult.

import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import type { ToolRules } from '../tools/permission';
import type { LimitsFile } from '../tools/policy-schema';
import type { AnyToolDef } from '../tools/types';

export interface JobTools {
  tools: readonly AnyToolDef[];
  allows(name: string): boolean;
  /** What the dispatcher applies to every call (the policy's rules, the task's grants). */
  rules: ToolRules;
  /** The policy's spend limits (subtasks, delegate depth), when it sets any. */
  limits?: LimitsFile;
}

import { assertNever } from '../../src-shared/assert-never';
import { CodedError } from '../../src-shared/errors';
import type { PieceRunResult } from '../jobs/piece-run-result';
import { createPackageInstaller } from '../tools/install-package';
import { policyFile } from '../tools/policy';
import { abortReason, executeMovement } from './agent-loop';
import { browserHandoffTool } from './browser-handoff-tool';
import { dropUnanswered } from './call-pairs';
import { type ChatMessage, Conversation } from './conversation';
import { keepConversation } from './conversation-points';
import { addWakeAnswers, answerDecidedCalls, decidedCalls } from './decisions';
import { delegateTool } from './delegate-tool';
import { dynamicContext, firstUserMessage, jobInstruction, subtaskNotice, taskContext } from './dynamic-context';
import { type EngineOptions, JobRun } from './job-run';
import { JobStream } from './job-stream';
import type { LlmPort } from './llm-port';
import { MovementBriefs, withInstruction } from './movement-brief';
import type { PieceRunContext } from './piece-result';
import { dueLoopMonitor } from './pieces/loop-monitor';
import { chooseStartMovement, type MovementDefinition, movementOf } from './pieces/schema';
import { movementGuidance, staticPreamble, systemMessage } from './prompt';
import { allReplayableThreads, isSamePieceContinuation } from './replay';
import { rewoundJobIds } from './rewound';
import { RunLog } from './run-log';
import { spendLimits } from './spend-limits';
import { createSubtaskTool, waitForSubtasksTool } from './subtask-tool';
import { transitionArgs } from './terminal-tools';
import { buildToolSpecs, pieceTools } from './tool-specs';

export interface PieceRunnerDeps {
  store: Store;
  llmFor(profile: string | null): LlmPort;
  /** The regular tools the Workspace Tool Policy allows for this job, and whether it allows a tool by name. */
  toolsFor(ctx: PieceRunContext): JobTools;
  options: EngineOptions;
  /** Whether a piece exists for this workspace (subtasks name one). */
  pieceExists?: (pieceId: string, workspacePath: string) => boolean;
  now?: () => Date;
}

export async function runPiece(deps: PieceRunnerDeps, ctx: PieceRunContext): Promise<PieceRunResult> {
  const { store } = deps;
  const { job, task, piece } = ctx;
  const now = deps.now ?? (() => new Date());
  const log = new RunLog(store, task.id, job.id);
  const warnings: string[] = [];
  let movement = chooseStartMovement(piece, job.resumeMovement, null, (w) => warnings.push(w));

  let llm: LlmPort;
  try {
    llm = deps.llmFor(job.profile);
  } catch (error) {
    // engine.ts's NoProfileError, known by its code (engine.ts imports this file).
    const missing = error instanceof CodedError && error.code === 'no_llm_profile';
    const code = missing ? { code: 'profile_missing' as const } : {};
    return { ...fatal((error as Error).message, movement), ...code };
  }
  let jobTools: JobTools;
  try {
    jobTools = deps.toolsFor(ctx);
  } catch (error) {
    return fatal((error as Error).message, movement);
  }
  let run: JobRun | undefined;
  const limitsFile = policyFile(ctx.workspacePath);
  const limits = spendLimits(piece, jobTools.limits, limitsFile);
  const pieceExists = (id: string) => deps.pieceExists?.(id, ctx.workspacePath) ?? id === piece.id;
  const engineTools = [
    createSubtaskTool(store, task, job, pieceExists, limits, limitsFile),
    waitForSubtasksTool(store, job),
    browserHandoffTool,
    // Injected only when the piece allows delegation (below its depth limit); otherwise a call is an unknown tool.
    ...(piece.delegate.allowed && limits.delegateDepth.value > 0
      ? [delegateTool(() => run as JobRun, limits.delegateDepth, limitsFile)]
      : []),
  ].filter((t) => jobTools.allows(t.name));
  // MCP tools come last, in name order, so the built-ins' prefix of `tools` is the same with or without them.
  const mcpTools = (ctx.mcpTools ?? []).filter((t) => jobTools.allows(t.name));
  const regular = pieceTools(piece, [...jobTools.tools, ...engineTools, ...mcpTools]);
  const checkpoints = deps.options.checkpoints ? await deps.options.checkpoints.forJob(task, job) : null;
  run = new JobRun({
    store,
    job,
    checkpoints,
    piece,
    workspacePath: ctx.workspacePath,
    runtimeDir: ctx.runtimeDir,
    signal: ctx.signal,
    llm,
    conversation: Conversation.open(ctx.runtimeDir, job.id, now),
    tools: regular,
    rules: jobTools.rules,
    toolSpecs: buildToolSpecs(piece, regular),
    transitionArgs: transitionArgs(piece),
    log,
    stream: new JobStream((event) => log.transient(event), task.id, job.id, deps.options.streamIntervalMs),
    options: deps.options,
  });
  const briefs = new MovementBriefs(store, task, job, piece);
  try {
    for (const w of warnings) run.queueNote(`Note: ${w}.`);

    const instruction = jobInstruction(store, task, job, ctx.runtimeDir);
    // A parent woken by its subtasks hears their results (Invoke Notify → SystemTurn); any other start is the task.
    const notice = job.pendingInvoke === 'Notify' ? subtaskNotice(store, job.id) : null;
    if (job.pendingInvoke) {
      log.invoke(job.pendingInvoke, notice ?? instruction);
      // The conversation as this Send found it, before the job's thread changes it (rewind and fork go back to it).
      const at = store.logEntries.lastInvokeSeq(task.id);
      if (at !== null) keepConversation(ctx.runtimeDir, String(at));
      store.jobs.clearPendingInvoke(job.id);
      // The workspace as this Send found it: the point "rewind to Send #N" returns to.
      await checkpoints?.atInvoke();
    }

    // The same job coming back (retry, approval) continues its own thread; a Continue replays the earlier threads;
    // any other job starts a new thread.
    const decided = decidedCalls(store, job.id);
    const woken = { replied: store.comments.undeliveredInterjections(job.id).length > 0, notified: notice !== null };
    const resumed = run.conversation.resumeOwnThread((m) => {
      addWakeAnswers(decided, m, woken);
      return dropUnanswered(m, new Set(decided.keys()));
    });
    if (resumed) {
      // After decisions the answers continue the conversation; after a retry or a crash a note says what happened.
      const answered = await answerDecidedCalls(
        run,
        run.toolContext(movement),
        decided,
        createPackageInstaller(() => ctx.runtimeDir, { sandbox: deps.options.sandbox }),
      );
      if (notice) run.queueNote(notice, false);
      else if (answered === 0) run.queueNote(`(Resumed in movement ${movement.name}.)`);
    } else {
      const system = systemMessage(staticPreamble(piece, regular, ctx.workspacePath), movement);
      // The start movement's instruction, filled now, ends the first user message (the system message stays static).
      const startInstruction = briefs.instruction(movement, { iteration: 1, stepIteration: 1 });
      const firstUser = (dynamic: string) =>
        withInstruction(firstUserMessage(dynamic, instruction), movement, startInstruction);
      const contextWith = (handoff: string | null) =>
        dynamicContext(task, ctx.workspacePath, now(), handoff, taskContext(store, task));
      const previous = job.continuedFromJobId ? store.jobs.get(job.continuedFromJobId) : undefined;
      // A fork's first job goes on from the conversation it was forked with, as a Continue does.
      const forkStart = !previous && task.forkedFrom != null && store.jobs.listForTask(task.id)[0]?.id === job.id;
      if (previous || forkStart) {
        const replayed = mergeAdjacentUserMessages(
          allReplayableThreads(run.conversation.priorLines(), {
            keepTransitions: previous ? isSamePieceContinuation(previous.pieceId, job.pieceId) : true,
          }),
        );
        // The handoff goes into the dynamic context only when no turn could be replayed (spec 3.1), and never a
        // rewound job's (its turns are out of the transcript already: P9.21).
        const rewound = previous ? rewoundJobIds(store, task.id) : new Set<string>();
        const handoff = replayed.length === 0 && previous && !rewound.has(previous.id) ? handoffOf(previous) : null;
        const user = firstUser(contextWith(handoff));
        if (replayed.at(-1)?.role === 'user') {
          const last = replayed.pop() as { content: string };
          run.conversation.seedContinuation(system, replayed, `${last.content}\n\n${user}`);
        } else run.conversation.seedContinuation(system, replayed, user);
      } else {
        run.conversation.seed(system, firstUser(contextWith(null)));
      }
    }

    const visits = new Map<string, number>();
    /** Movements that ended in a transition, for the loop checks. */
    const history: string[] = [];
    let entered = 0;
    for (;;) {
      if (ctx.signal.aborted) return { kind: 'cancelled', reason: abortReason(ctx.signal) };
      entered++;
      const seen = (visits.get(movement.name) ?? 0) + 1;
      visits.set(movement.name, seen);
      if (entered > piece.maxMovements) {
        return fatal(
          `movement loop: ${entered - 1} movements entered, the piece allows ${piece.maxMovements}`,
          movement,
        );
      }
      if (seen - 1 > piece.revisitLimit) {
        return fatal(`movement loop: ${movement.name} was revisited more than ${piece.revisitLimit} times`, movement);
      }
      store.jobs.setResumeMovement(job.id, movement.name);
      store.publish({ type: 'movement.entered', taskId: task.id, jobId: job.id, movement: movement.name });

      const result = await executeMovement(run, movement);
      switch (result.kind) {
        case 'next': {
          briefs.ended(movement, result.output);
          history.push(movement.name);
          // A loop check whose cycle just reached its threshold enters its judge instead (TAKT's loop_monitors).
          const due = dueLoopMonitor(piece.loopMonitors, history);
          const next = movementOf(piece, due ? due.monitor.judge : result.movement) as MovementDefinition;
          const counts = { iteration: entered + 1, stepIteration: (visits.get(next.name) ?? 0) + 1 };
          const filled = briefs.instruction(next, { ...counts, cycleCount: due?.count ?? 0 });
          const loopNote = due
            ? `(Loop check: ${due.monitor.cycle.join(' → ')} ran ${due.count} times in a row.)\n\n`
            : '';
          run.queueNote(withInstruction(`${loopNote}${movementGuidance(next)}`, next, filled));
          movement = next;
          continue;
        }
        case 'complete':
          return { kind: 'completed', result: result.message };
        case 'ask':
          return { kind: 'ask', movement: movement.name, question: result.question, choices: result.choices };
        case 'wait_approval':
          return {
            kind: 'waiting_approval',
            movement: movement.name,
            toolRequests: result.toolRequests,
            packageRequests: result.packageRequests,
          };
        case 'wait_subtasks':
          return { kind: 'waiting_subtasks', movement: movement.name };
        case 'wait_browser':
          return {
            kind: 'waiting_human',
            reason: 'browser',
            movement: movement.name,
            message: `In your browser, please: ${result.step.instruction} (${result.step.url}) — then reply here.`,
            notice: { code: 'browser_step', instruction: result.step.instruction, url: result.step.url },
          };
        case 'cancelled':
          return { kind: 'cancelled', reason: result.reason };
        case 'error': {
          const { message, retryable, outageMs, code } = result;
          return {
            kind: 'error',
            message,
            retryable,
            movement: movement.name,
            ...(outageMs ? { outageMs } : {}),
            ...(code ? { code } : {}),
          };
        }
        default:
          return assertNever(result, 'movement result');
      }
    }
  } finally {
    run.dispose();
    run.conversation.close();
    // What the run's last step changed, recorded before the job's state is (never throws: a miss is noted).
    await checkpoints?.atEnd();
  }
}

/** What the previous job left, for a Continue with nothing to replay. */
const handoffOf = (previous: JobRecord): string =>
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

const fatal = (message: string, movement: MovementDefinition): PieceRunResult => ({
  kind: 'error',
  message,
  retryable: false,
  movement: movement.name,
});
