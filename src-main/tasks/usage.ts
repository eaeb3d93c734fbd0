// GET /tasks/:id/usage: the task's usage roll-up with what each part cost where its model has a price (the one
// computation is src-shared/pricing.ts), and the context gauge: the last request's prompt against the model's window.
import type { OpOutput } from '../../src-shared/contract';
import { CostSum, type ModelPrices, pricesFor } from '../../src-shared/pricing';
import type { LlmCallRow } from '../db/repos/log-entries';
import { ContextWindows } from '../llm/context-windows';
import type { ProfileRegistry } from '../llm/profiles';
import type { TaskContext } from './context';
import { requireTask } from './queries';

/** One window cache per registry (per app): a usage reload after every AgentTurn asks no server again. */
const windowCaches = new WeakMap<ProfileRegistry, ContextWindows>();

export function getUsage(ctx: TaskContext, taskId: string): OpOutput<'getUsage'> {
  requireTask(ctx, taskId);
  const usage = ctx.store.logEntries.usage(taskId);
  const priceOf = pricer(ctx.profiles);
  const task = new CostSum();
  const jobs = new Map<string, CostSum>();
  const invokes = usage.invokes.map((invoke) => {
    const invokeSum = new CostSum();
    const agentTurns = invoke.agentTurns.map((turn) => {
      const turnSum = new CostSum();
      const llmCalls = turn.llmCalls.map((call) => {
        const prices = priceOf(call);
        for (const sum of [turnSum, invokeSum, task, jobSum(jobs, invoke.jobId)]) sum.add(prices, call.usage);
        const { profile: _profile, ...row } = call;
        return { ...row, usd: new CostSum().add(prices, call.usage).usd };
      });
      return { ...turn, usd: turnSum.usd, llmCalls };
    });
    return { ...invoke, usd: invokeSum.usd, agentTurns };
  });
  return {
    total: usage.total,
    totalUsd: task.usd,
    jobs: usage.jobs.map((j) => ({ ...j, usd: jobs.get(j.jobId)?.usd ?? null })),
    invokes,
  };
}

/** The last request's prompt against its model's window; null when the window is unknown (no gauge is guessed). */
export async function getContextGauge(ctx: TaskContext, taskId: string): Promise<OpOutput<'getContextGauge'>> {
  requireTask(ctx, taskId);
  const call = ctx.store.logEntries.lastPricedCall(taskId);
  if (!call) return { context: null };
  const windows = windowCaches.get(ctx.profiles) ?? new ContextWindows(ctx.profiles);
  windowCaches.set(ctx.profiles, windows);
  const window = await windows.of(call.profile, call.model);
  return { context: window ? { promptTokens: call.promptTokens, model: call.model, ...window } : null };
}

function jobSum(jobs: Map<string, CostSum>, jobId: string): CostSum {
  const sum = jobs.get(jobId) ?? new CostSum();
  jobs.set(jobId, sum);
  return sum;
}

/** Prices per call, each profile looked up once. A call recorded without its profile and model has none. */
function pricer(profiles: ProfileRegistry): (call: LlmCallRow) => ModelPrices | null {
  const views = new Map<string, ReturnType<ProfileRegistry['view']>>();
  return (call) => {
    if (call.profile === null || call.model === null) return null;
    if (!views.has(call.profile)) views.set(call.profile, profiles.view(call.profile));
    return pricesFor(views.get(call.profile), call.model);
  };
}
