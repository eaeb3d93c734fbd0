// The tool and package requests of the selected task: loaded from the DB with the task (so a reload shows a waiting
// approval card again, P7.17), folded from request events, and decided from the cards (P7.01, P7.03–P7.12).
import type { StateCreator } from 'zustand';
import { isTerminal, type Job, type PackageRequest, type ToolRequest } from '../../../src-shared/entities';
import { type MaestroApi, type OpInput, toApiError } from '../api/client';
import { translate } from '../i18n/translate';
import type { ActionOutcome } from './detail-slice';
import { mergeById, upsertById } from './merge';
import type { AppState } from './types';

export interface TaskRequests {
  taskId: string;
  tool: ToolRequest[];
  package: PackageRequest[];
}

export interface RequestsSlice {
  /** For the selected task only. */
  requests: TaskRequests | null;
  /** Starts an empty list for a newly selected task (null: none selected). */
  resetRequests(taskId: string | null): void;
  refreshRequests(taskId: string): Promise<void>;
  foldToolRequest(request: ToolRequest): void;
  foldPackageRequest(request: PackageRequest): void;
  decideToolRequest(input: OpInput<'decideToolRequest'>): Promise<ActionOutcome>;
  decidePackageRequest(input: OpInput<'decidePackageRequest'>): Promise<ActionOutcome>;
}

/** A decision is final: an answer that left the server before it must not bring the pending copy back. */
function decidedWins<R extends { status: string }>(known: R, fresh: R): R {
  return known.status !== 'pending' ? known : fresh;
}

/** Codes after which what this window knows is stale: the request or its job moved on elsewhere. */
const STALE_CODES = new Set(['already_decided', 'job_not_waiting', 'not_found']);

export const createRequestsSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], RequestsSlice> =>
  (set, get) => {
    const withRequests = (taskId: string, change: (current: TaskRequests) => Partial<TaskRequests>) =>
      set((state) =>
        state.requests?.taskId === taskId ? { requests: { ...state.requests, ...change(state.requests) } } : {},
      );

    const decided = async (taskId: string, decide: () => Promise<void>): Promise<ActionOutcome> => {
      try {
        await decide();
        return { ok: true };
      } catch (error) {
        const apiError = toApiError(error);
        if (STALE_CODES.has(apiError.code)) void get().refreshDetail();
        const text = translate(get().locale, 'toast.decisionFailed', { message: apiError.message });
        get().pushToast({ tone: 'error', text, taskId });
        return { ok: false, error: apiError };
      }
    };

    return {
      requests: null,

      resetRequests(taskId) {
        set({ requests: taskId ? { taskId, tool: [], package: [] } : null });
      },

      async refreshRequests(taskId) {
        try {
          const [tool, pkg] = await Promise.all([
            api.listToolRequests({ taskId }),
            api.listPackageRequests({ taskId }),
          ]);
          withRequests(taskId, (current) => ({
            tool: mergeById(current.tool, tool.requests, decidedWins),
            package: mergeById(current.package, pkg.requests, decidedWins),
          }));
        } catch {
          // The job status still shows the wait; the next reload or event brings the cards.
        }
      },

      foldToolRequest(request) {
        withRequests(request.taskId, (current) => {
          const known = current.tool.find((r) => r.id === request.id);
          return { tool: upsertById(current.tool, known ? decidedWins(known, request) : request) };
        });
      },

      foldPackageRequest(request) {
        withRequests(request.taskId, (current) => {
          const known = current.package.find((r) => r.id === request.id);
          return { package: upsertById(current.package, known ? decidedWins(known, request) : request) };
        });
      },

      decideToolRequest(input) {
        return decided(input.taskId, async () => get().foldToolRequest((await api.decideToolRequest(input)).request));
      },

      decidePackageRequest(input) {
        return decided(input.taskId, async () =>
          get().foldPackageRequest((await api.decidePackageRequest(input)).request),
        );
      },
    };
  };

export interface PendingRequests {
  tool: ToolRequest[];
  package: PackageRequest[];
}

export const NO_PENDING: PendingRequests = { tool: [], package: [] };

/**
 * The requests that wait for a decision: pending, and of a job that has not ended (a cancelled job's requests are
 * denied by the backend; until that event arrives its cards are already gone, P7.22).
 */
export function pendingRequests(requests: TaskRequests | null, jobs: readonly Job[]): PendingRequests {
  if (!requests) return NO_PENDING;
  const open = (r: { status: string; jobId: string }) => {
    if (r.status !== 'pending') return false;
    const job = jobs.find((j) => j.id === r.jobId);
    return !job || !isTerminal(job.status);
  };
  const tool = requests.tool.filter(open);
  const pkg = requests.package.filter(open);
  return tool.length === 0 && pkg.length === 0 ? NO_PENDING : { tool, package: pkg };
}
