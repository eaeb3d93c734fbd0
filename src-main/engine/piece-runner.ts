// runPiece (spec §2): set up the run (log, conversation, tools) in the start movement chosen when the job was
// prepared, open its Invoke, seed or resume the conversation (run-setup.ts), then loop movements under the movement
// guards (max movements, revisits: guards/, durable per job lineage) until a movement result ends the run as a
// PieceRunResult.

import { assertNever } from '../../src-shared/assert-never';
import { abortOf } from './abort';
import { executeMovement } from './agent-loop';
import type { JobRun } from './job-run';
import { type MovementBriefs, withInstruction } from './movement-brief';
import type { PieceRunContext, PieceRunResult } from './piece-result';
import { dueLoopMonitor } from './pieces/loop-monitor';
import { decideRoute } from './pieces/route';
import { type MovementDefinition, movementOf } from './pieces/schema';
import { movementGuidance } from './prompt';
import { fatal, openInvoke, openRun, type PieceRunnerDeps, type RunSetup, startConversation } from './run-setup';

export async function runPiece(deps: PieceRunnerDeps, ctx: PieceRunContext): Promise<PieceRunResult> {
  const start = movementOf(ctx.piece, ctx.start.name);
  if (!start)
    return { kind: 'error', message: `${ctx.start.name} is no movement of piece ${ctx.piece.id}`, retryable: false };
  const setup = await openRun(deps, ctx, start);
  if ('kind' in setup) return setup;
  const { run, checkpoints } = setup;
  try {
    for (const w of ctx.start.warnings) run.queueNote(`Note: ${w}.`);
    const notice = await openInvoke(setup, ctx);
    await startConversation(setup, ctx, start, notice);
    return await runMovements(setup, ctx, start);
  } finally {
    run.dispose();
    run.conversation.close();
    await setup.closeTools();
    // What the run's last step changed, recorded before the job's state is (never throws: a miss is noted).
    await checkpoints?.atEnd();
  }
}

/**
 * The movements, one after another, from `start`: each entry counted by the movement guards (a job resuming in the
 * movement it was in is no new entry), recorded with their state, until a movement's result ends the run.
 */
async function runMovements(
  { journal, run, briefs }: RunSetup,
  ctx: PieceRunContext,
  start: MovementDefinition,
): Promise<PieceRunResult> {
  const { piece } = ctx;
  const { guards } = run;
  let movement = start;
  let resuming = guards.resumesIn(start.name);
  for (;;) {
    if (ctx.signal.aborted) return { kind: 'cancelled', reason: abortOf(ctx.signal).message };
    if (!resuming) {
      const entry = guards.movements.enter(movement.name);
      if (entry.kind === 'limit') return fatal(entry.message, movement);
      guards.entering(movement.name);
    }
    resuming = false;
    journal.recordMovement(movement.name, guards.state);

    const result = movement.route?.system ? systemStep(run, movement, briefs) : await executeMovement(run, movement);
    if (result.kind !== 'next') return pieceResultOf(result, movement);
    briefs.ended(movement, result.output);
    guards.ended(movement.name);
    // A loop check whose cycle just reached its threshold enters its judge instead (TAKT's loop_monitors).
    const due = dueLoopMonitor(piece.loopMonitors, guards.state.history);
    const next = movementOf(piece, due ? due.monitor.judge : result.movement) as MovementDefinition;
    const filled = briefs.instruction(next, { ...guards.movements.upcoming(next.name), cycleCount: due?.count ?? 0 });
    const loopNote = due ? `(Loop check: ${due.monitor.cycle.join(' → ')} ran ${due.count} times in a row.)\n\n` : '';
    run.queueNote(withInstruction(`${loopNote}${movementGuidance(next)}`, next, filled));
    movement = next;
  }
}

/**
 * A system movement (TAKT's `mode: system`): no model call — its rules are evaluated on the structured results so
 * far and the decision is noted in the conversation, so the model knows how the workflow got where it is. What the
 * previous movement ended with passes through to the next.
 */
function systemStep(
  run: JobRun,
  movement: MovementDefinition,
  briefs: MovementBriefs,
): Awaited<ReturnType<typeof executeMovement>> {
  const decision = decideRoute(movement, run.structured, null);
  if (!decision.ok)
    return { kind: 'error', message: `system step ${movement.name}: ${decision.message}`, retryable: false };
  const { rule } = decision;
  const target = rule.to ?? (rule.end === 'complete' ? 'COMPLETE' : 'ABORT');
  run.queueNote(`(System step ${movement.name}: when(${rule.source}) held → ${target}.)`);
  if (rule.to) return { kind: 'next', movement: rule.to, output: briefs.previousResponse };
  if (rule.end === 'complete')
    return { kind: 'complete', message: briefs.previousResponse || `${movement.name}: COMPLETE` };
  return {
    kind: 'error',
    message: `system step ${movement.name} ended the workflow (ABORT: when(${rule.source}))`,
    retryable: false,
  };
}

/** How a movement's end (other than a transition) ends the piece run. */
function pieceResultOf(
  result: Exclude<Awaited<ReturnType<typeof executeMovement>>, { kind: 'next' }>,
  movement: MovementDefinition,
): PieceRunResult {
  switch (result.kind) {
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
    case 'wait_mcp_auth':
      return {
        kind: 'waiting_human',
        reason: 'mcp_auth_required',
        movement: movement.name,
        message: result.message,
        notice: { code: 'mcp_auth', server: result.server, callId: result.callId },
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
