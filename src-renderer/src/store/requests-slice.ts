// The tool and package requests of the selected task: loaded from the DB with the task into the entities (so a reload
// shows a waiting approval card again, P7.17), and decided from the cards (P7.01, P7.03–P7.12).
import type { StateCreator } from 'zustand';
import { isTerminal, type Job, type PackageRequest, type ToolRequest } from '../../../src-shared/entities';
import { type MaestroApi, type OpInput, toApiError } from '../api/client';
import { translate } from '../i18n/translate';
import type { ActionOutcome } from './detail-slice';
import type { TaskRequests } from './entities';
import type { AppState } from './types';

export type { TaskRequests };

export interface RequestsSlice {
  refreshRequests(taskId: string): Promise<void>;
  decideToolRequest(input: OpInput<'decideToolRequest'>): Promise<ActionOutcome>;
  decidePackageRequest(input: OpInput<'decidePackageRequest'>): Promise<ActionOutcome>;
  /** The person's answer to an MCP server's question (a form, leave to ask the model). */
  answerMcpPrompt(input: OpInput<'answerMcpPrompt'>): Promise<ActionOutcome>;
}

/** Codes after which what this window knows is stale: the request or its job moved on elsewhere. */
const STALE_CODES = new Set(['already_decided', 'job_not_waiting', 'not_found']);

export const createRequestsSlice =
  (api: MaestroApi): StateCreator<AppState, [], [], RequestsSlice> =>
  (_set, get) => {
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
      async refreshRequests(taskId) {
        try {
          const [tool, pkg, mcp] = await Promise.all([
            api.listToolRequests({ taskId }),
            api.listPackageRequests({ taskId }),
            // The servers' questions come apart: failing to list them leaves the approval cards as they load.
            (async () => api.listMcpPrompts({ taskId }))().catch(() => null),
          ]);
          get().fold({
            kind: 'requests.page',
            taskId,
            tool: tool.requests,
            package: pkg.requests,
            ...(mcp ? { mcp: mcp.prompts } : {}),
          });
        } catch {
          // The job status still shows the wait; the next reload or event brings the cards.
        }
      },

      decideToolRequest(input) {
        return decided(input.taskId, async () =>
          get().fold({ kind: 'tool_request', request: (await api.decideToolRequest(input)).request }),
        );
      },

      answerMcpPrompt(input) {
        return decided(input.taskId, async () =>
          get().fold({ kind: 'mcp_prompt', prompt: (await api.answerMcpPrompt(input)).prompt, open: false }),
        );
      },

      decidePackageRequest(input) {
        return decided(input.taskId, async () =>
          get().fold({ kind: 'package_request', request: (await api.decidePackageRequest(input)).request }),
        );
      },
    };
  };

export interface PendingRequests {
  tool: readonly ToolRequest[];
  package: readonly PackageRequest[];
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
