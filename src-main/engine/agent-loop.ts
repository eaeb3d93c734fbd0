// executeMovement: the iteration loop of one movement (spec §3) — cancel/deadline check, the iteration guard and
// watchdog, pending user messages, prompt guard, one LLM iteration, the tool-loop guard, regular tool dispatch, then
// the complete/transition decision. The guards count on the job lineage's loop state (guards/), stored with each step.

import { describeIssues } from '../../src-shared/issues';
import { fail, ok } from '../tools/outcome';
import { abortOf, JobAbort, stoppedBy } from './abort';
import { isQuestion } from './assistant-reply';
import { type AutoPrompter, autoPrompterOf } from './auto-prompter';
import type { IterationGuard } from './guards/iteration-guard';
import type { JobRun } from './job-run';
import { runLlmIteration } from './llm-iteration';
import type { MovementResult } from './movement-result';
import { decideRoute } from './pieces/route';
import type { MovementDefinition } from './pieces/schema';
import { COMPLETE, CompleteCall, questionChoices, TRANSITION } from './terminal-tools';
import { callKey as toolCallKey } from './tool-cache';
import { type DispatchedCall, dispatchRegularToolCalls, parseArguments, type ToolCall } from './tool-dispatch';

const TEXT_ONLY_WARNING =
  'You replied without calling a tool. Continue the task by calling tools; when it is done, call `complete`.';
const WATCHDOG_WARNING =
  'Several iterations have passed without progress. Step back, decide what is missing, and either make progress ' +
  'with a different approach or call `complete` (needs_user_input or failure) if you are stuck.';

const callKey = (c: ToolCall) => toolCallKey(c.name, c.arguments);

export async function executeMovement(run: JobRun, movement: MovementDefinition): Promise<MovementResult> {
  // The job's Policy Snapshot, taken before its first LLM request and fixed for the job (P8.01); null when off.
  let prompter: AutoPrompter | null;
  try {
    prompter = autoPrompterOf(run, movement);
  } catch (error) {
    return { kind: 'error', message: (error as Error).message, retryable: false };
  }
  try {
    return await iterate(run, movement, prompter);
  } finally {
    // A step recorded behind the next request is committed before the movement's end is.
    run.journal.settle();
  }
}

async function iterate(
  run: JobRun,
  movement: MovementDefinition,
  prompter: AutoPrompter | null,
): Promise<MovementResult> {
  // The movement's counts: the lineage's when the job resumes in it (a park, a retry, a restart), else from zero.
  const guard = run.guards.iterations(movement);
  for (;;) {
    const stop = beforeIteration(run, movement, guard);
    if (stop) return stop;
    run.deliverPendingUserMessages();
    const overflow = await guardPrompt(run);
    if (overflow) return overflow;

    const iteration = await runLlmIteration(run, movement.name);
    if (iteration.kind !== 'ok') return iteration.result;
    const { turn } = iteration;
    run.conversation.append(turn.message);
    if (turn.refusal !== null) return { kind: 'error', message: turn.refusal, retryable: false, code: 'model_refused' };
    const { toolCalls } = turn;

    if (toolCalls.length === 0) {
      const verdict = guard.textOnly(iteration.reply.text);
      if (verdict === 'stop') {
        const outcome = textOutcome(run, guard.lastText, guard.textReplies);
        guard.streakEnded();
        run.saveGuards();
        return outcome;
      }
      run.saveGuards();
      run.queueNote(TEXT_ONLY_WARNING);
      continue;
    }
    guard.called();

    const regular = toolCalls.filter((c) => c.name !== COMPLETE && c.name !== TRANSITION);
    const terminal = toolCalls.filter((c) => c.name === COMPLETE || c.name === TRANSITION);
    const counted = countCalls(run, regular, toolCalls);
    if (counted.kind === 'loop') return counted.result;

    const gate = prompter?.gate(run); // undefined when off: the Auto Prompter path is not entered (P8.09)
    const dispatched = await dispatchRegularToolCalls(
      regular,
      run.tools,
      movement,
      run.toolContext(movement),
      run.toolCache,
      run.rules,
      gate,
    );
    // The step's results and the guards' counts are recorded (the transcript now, the transaction behind the next
    // request) before the loop goes on.
    const settled = run.recordStepBehind(() => {
      const s = settle(run, movement, dispatched, terminal, iteration.reply.text, counted.firstTime);
      guard.settled(s.progressed);
      run.saveGuards();
      return s;
    });
    if (settled.result) return settled.result;
  }
}

/** At the loop's top: a cancel, the deadline or the iteration limit ends the movement; the watchdog may warn. */
function beforeIteration(run: JobRun, movement: MovementDefinition, guard: IterationGuard): MovementResult | null {
  if (run.signal.aborted) return stoppedBy(abortOf(run.signal));
  if (run.deadline !== null && Date.now() > run.deadline) {
    return stoppedBy(new JobAbort('deadline', 'the job ran past its deadline'));
  }
  switch (guard.next()) {
    case 'limit':
      return {
        kind: 'error',
        message: `movement ${movement.name} reached its limit of ${movement.maxIterations} iterations without calling complete or transition`,
        retryable: false,
        code: 'iteration_limit',
      };
    case 'watchdog':
      run.queueNote(WATCHDOG_WARNING);
      return null;
    case 'go':
      return null;
  }
}

/** The prompt guard before the request: an event when it acted, the rewrite, or the overflow that ends the movement. */
async function guardPrompt(run: JobRun): Promise<MovementResult | null> {
  const guarded = await run.options.promptGuard.check(run.conversation.messages, run.toolSpecs);
  if (guarded.kind !== 'unchanged' && guarded.report) {
    run.log.event({
      type: 'prompt.guarded',
      taskId: run.job.taskId,
      jobId: run.job.id,
      outcome: guarded.kind,
      steps: guarded.report.steps.map((s) => s.step),
      tokensBefore: guarded.report.beforeTokens,
      tokensAfter: guarded.report.afterTokens,
    });
  }
  if (guarded.kind === 'overflow') {
    return { kind: 'error', message: guarded.message, retryable: false, code: 'context_overflow' };
  }
  if (guarded.kind === 'rewrite') run.conversation.rewrite(guarded.messages);
  return null;
}

/**
 * Counts the reply's regular calls on the tool-loop guard: one made `repeatedCalls` times in the job's lineage stops
 * the job, every call of the reply answered that it did not run (and the counts stored with the answers). Otherwise:
 * the ids of the calls made for the first time in the lineage (progress, for the watchdog).
 */
function countCalls(
  run: JobRun,
  regular: readonly ToolCall[],
  toolCalls: readonly ToolCall[],
): { kind: 'loop'; result: MovementResult } | { kind: 'counted'; firstTime: ReadonlySet<string> } {
  // Each call's count once the whole reply is counted: a call the reply makes twice is no first time.
  const counts = new Map<string, number>();
  const keys = new Map<string, string>();
  for (const call of regular) {
    const key = callKey(call);
    const { times, loop } = run.guards.calls.count(key);
    counts.set(key, times);
    keys.set(call.id, key);
    if (!loop) continue;
    const stop = fail(`not run — the job stops: ${call.name} was called ${times} times with the same arguments`);
    run.recordStep(() => {
      for (const c of toolCalls) run.answer(c, stop);
      run.saveGuards();
    });
    return {
      kind: 'loop',
      result: {
        kind: 'error',
        message: `tool loop: ${call.name} was called ${times} times with the same arguments`,
        retryable: false,
        code: 'tool_loop',
      },
    };
  }
  const firstTime = new Set([...keys].filter(([, key]) => counts.get(key) === 1).map(([id]) => id));
  return { kind: 'counted', firstTime };
}

/**
 * A model that still answers in text once the nudges are spent: its last text is the outcome — the user's question
 * when it ends asking something (isQuestion) and questions are left, else the task's result. Only replies that were
 * all empty fail the movement.
 */
function textOutcome(run: JobRun, text: string, replies: number): MovementResult {
  if (!text) {
    return {
      kind: 'error',
      message: `the model answered ${replies} times in a row without calling a tool, and without any text`,
      retryable: false,
      code: 'no_reply',
    };
  }
  if (isQuestion(text) && run.askCount < run.options.limits.asks) return { kind: 'ask', question: text };
  return run.openChildCount() > 0 ? { kind: 'wait_subtasks' } : { kind: 'complete', message: text };
}

/** Records the results of one reply and decides what it means: wait, end the movement, or go on (null). */
function settle(
  run: JobRun,
  movement: MovementDefinition,
  dispatched: DispatchedCall[],
  terminal: ToolCall[],
  replyText: string,
  firstTime: ReadonlySet<string>,
): { result: MovementResult | null; progressed: boolean } {
  let progressed = false;
  const waits: { call: ToolCall; outcome: Extract<DispatchedCall['outcome'], { kind: 'wait' }> }[] = [];
  for (const d of dispatched) {
    if (d.outcome.kind === 'wait') waits.push({ call: d.call, outcome: d.outcome });
    else {
      run.answer(d.call, d.outcome);
      if (d.outcome.ok && firstTime.has(d.call.id)) progressed = true;
    }
  }
  if (waits.length > 0) {
    for (const c of terminal) run.answer(c, fail(`not processed — the job waits for a person's decision first`));
    // One wait at a time: approvals first (all of one reply together); then a browser step (P4.41), the subtasks
    // (P4.42) or an MCP sign-in; any other wait of the same reply is refused and can be asked for again afterwards.
    const approvals = waits.filter((w) => w.outcome.toolRequest || w.outcome.packageRequest);
    const others = waits.filter((w) => !(w.outcome.toolRequest || w.outcome.packageRequest));
    const [first, ...later] = approvals.length > 0 ? [] : others;
    for (const w of approvals.length > 0 ? others : later) {
      run.answer(w.call, fail('not processed — one wait at a time; call it again after this one'));
    }
    if (first?.outcome.browser) return { progressed, result: { kind: 'wait_browser', step: first.outcome.browser } };
    if (first?.outcome.mcpAuth) {
      const { server, message } = first.outcome.mcpAuth;
      return { progressed, result: { kind: 'wait_mcp_auth', server, message, callId: first.call.id } };
    }
    if (first?.outcome.subtasks) return { progressed, result: { kind: 'wait_subtasks' } };
    return {
      progressed,
      result: {
        kind: 'wait_approval',
        toolRequests: waits.flatMap((w) =>
          w.outcome.toolRequest ? [{ ...w.outcome.toolRequest, callId: w.call.id }] : [],
        ),
        packageRequests: waits.flatMap((w) =>
          w.outcome.packageRequest ? [{ ...w.outcome.packageRequest, callId: w.call.id }] : [],
        ),
      },
    };
  }
  return { progressed, result: terminal.length === 0 ? null : decideTerminal(run, movement, terminal, replyText) };
}

/** The first valid complete/transition in call order wins; every other terminal call gets an Error result. */
function decideTerminal(
  run: JobRun,
  movement: MovementDefinition,
  calls: ToolCall[],
  replyText: string,
): MovementResult | null {
  let winner: MovementResult | null = null;
  for (const call of calls) {
    if (winner) {
      run.answer(call, fail(`ignored — an earlier ${COMPLETE}/${TRANSITION} call in this reply was accepted`));
      continue;
    }
    const verdict =
      call.name === COMPLETE ? judgeComplete(run, movement, call) : judgeTransition(run, movement, call, replyText);
    if (verdict.kind === 'rejected') {
      run.answer(call, fail(verdict.message));
      continue;
    }
    run.answer(call, ok(verdict.ack));
    winner = verdict.result;
  }
  return winner;
}

type Verdict = { kind: 'accepted'; ack: string; result: MovementResult } | { kind: 'rejected'; message: string };

function judgeComplete(run: JobRun, movement: MovementDefinition, call: ToolCall): Verdict {
  const args = parseArguments(call.arguments);
  if (!args.ok) return { kind: 'rejected', message: `complete: ${args.message}` };
  const parsed = CompleteCall.safeParse(args.value);
  if (!parsed.success) {
    const issues = describeIssues(parsed.error.issues, { whole: 'arguments' });
    return { kind: 'rejected', message: `complete: invalid arguments — ${issues}` };
  }
  const { status, message } = parsed.data;
  switch (status) {
    case 'success':
      if (run.openChildCount() > 0)
        return { kind: 'accepted', ack: 'Waiting for the subtasks to finish.', result: { kind: 'wait_subtasks' } };
      return movement.route
        ? routedEnd(run, movement, message)
        : { kind: 'accepted', ack: 'Task complete.', result: { kind: 'complete', message } };
    case 'needs_user_input':
      if (run.askCount >= run.options.limits.asks) {
        return {
          kind: 'rejected',
          message: `you have already asked the user ${run.askCount} times in this task; decide with what you know`,
        };
      }
      return {
        kind: 'accepted',
        ack: 'Question sent to the user.',
        result: { kind: 'ask', question: message, choices: questionChoices(parsed.data.choices) },
      };
    case 'failure':
      return { kind: 'accepted', ack: 'Task marked as failed.', result: { kind: 'error', message, retryable: false } };
  }
}

/**
 * A routed movement's `complete` ("success"): its message is the step's result, and the engine's rules — not the
 * model — say where the workflow goes. A result that fails its schema, or that no rule holds for, is refused with why,
 * and the model may send it again.
 */
function routedEnd(run: JobRun, movement: MovementDefinition, message: string): Verdict {
  const decision = decideRoute(movement, run.structured, message);
  if (!decision.ok) return { kind: 'rejected', message: `complete: ${decision.message}` };
  if (decision.value !== undefined) run.keepStructured(movement.name, decision.value);
  const { rule } = decision;
  const why = `when(${rule.source})`;
  if (rule.to)
    return {
      kind: 'accepted',
      ack: `Result recorded; ${why} held: moving on to ${rule.to}.`,
      result: { kind: 'next', movement: rule.to, output: message },
    };
  if (rule.end === 'complete')
    return {
      kind: 'accepted',
      ack: `Result recorded; ${why} held: task complete.`,
      result: { kind: 'complete', message },
    };
  return {
    kind: 'accepted',
    ack: `Result recorded; ${why} held: the workflow ends here (ABORT).`,
    result: { kind: 'error', message: `${movement.name} ended the workflow (ABORT: ${why})`, retryable: false },
  };
}

function judgeTransition(run: JobRun, movement: MovementDefinition, call: ToolCall, replyText: string): Verdict {
  const allowed = movement.transitions.map((t) => t.to);
  const args = parseArguments(call.arguments);
  if (!args.ok) return { kind: 'rejected', message: `transition: ${args.message}` };
  const next = (args.value as { next?: unknown } | null)?.next;
  if (typeof next !== 'string' || !allowed.includes(next)) {
    const from =
      allowed.length > 0
        ? `allowed from ${movement.name}: ${allowed.join(', ')}`
        : `${movement.name} has no transitions; call complete`;
    return { kind: 'rejected', message: `transition to ${JSON.stringify(next)} is not allowed (${from})` };
  }
  if (!run.transitionArgs.safeParse(args.value).success) {
    return { kind: 'rejected', message: 'transition: invalid arguments — expected { next, reason? }' };
  }
  const { reason } = args.value as { reason?: string };
  const output = [replyText.trim(), reason?.trim() ?? ''].filter(Boolean).join('\n\n');
  return { kind: 'accepted', ack: `Moving on to ${next}.`, result: { kind: 'next', movement: next, output } };
}
