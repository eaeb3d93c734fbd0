// Test helpers for task operations: a Maestro on a temp data dir, jobs moved through legal transitions, error capture.
import { expect } from 'vitest';
import type { MaestroOptions } from '../src-main/app/create-maestro';
import type { JobRecord } from '../src-main/db/repos/jobs';
import type { Store } from '../src-main/db/store';
import type { OpInput } from '../src-shared/contract';
import type { JobStatus, WaitReason } from '../src-shared/entities';
import { type ErrorCode, MaestroError } from '../src-shared/errors';
import { testMaestro } from './temp-maestro';

export function setup(options: Partial<MaestroOptions> = {}) {
  const m = testMaestro(options);
  const create = (input: Partial<OpInput<'createTask'>> = {}) =>
    m.invoke('createTask', { instruction: 'Write a haiku about SQLite', ...input });
  return { m, store: m.store, create };
}

/** Runs `fn`, expects a MaestroError with `code`, and returns it. */
export function expectMaestroError(fn: () => unknown, code: ErrorCode): MaestroError {
  let error: unknown;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, `expected MaestroError ${code}`).toBeInstanceOf(MaestroError);
  expect((error as MaestroError).code).toBe(code);
  return error as MaestroError;
}

export interface MoveOptions {
  waitReason?: WaitReason;
  resumeMovement?: string;
  askCount?: number;
  /** With waitReason tool_request/package_request: how many requests of each kind to insert before parking. */
  toolRequests?: number;
  packageRequests?: number;
}

/** Moves a queued job to `status` through legal transitions of the state machine, as the Worker would. */
export function moveTo(store: Store, jobId: string, status: JobStatus, options: MoveOptions = {}): JobRecord {
  const tr = (from: JobStatus, to: JobStatus, patch = {}) => {
    const changed = store.jobs.transition(jobId, from, to, patch);
    if (!changed) throw new Error(`test setup: ${jobId} is not ${from}`);
    return changed;
  };
  if (status === 'queued') return store.jobs.get(jobId) as JobRecord;
  if (status === 'cancelled') return tr('queued', 'cancelled');
  tr('queued', 'running', { workerId: 'w1', heartbeatAt: Date.now() });
  const resumeMovement = options.resumeMovement ?? 'work';
  const askCount = options.askCount;
  switch (status) {
    case 'running':
      return store.jobs.get(jobId) as JobRecord;
    case 'waiting_human': {
      const waitReason = options.waitReason ?? 'ask';
      const job = store.jobs.get(jobId) as JobRecord;
      const tools = options.toolRequests ?? (waitReason === 'tool_request' ? 1 : 0);
      const packages = options.packageRequests ?? (waitReason === 'package_request' ? 1 : 0);
      for (let i = 0; i < tools; i++) {
        store.toolRequests.insert(job.taskId, jobId, {
          callId: `call_t${i}`,
          tool: 'run_command',
          args: { command: `echo ${i}` },
          summary: `run echo ${i}`,
        });
      }
      for (let i = 0; i < packages; i++) {
        store.packageRequests.insert(job.taskId, jobId, {
          callId: `call_p${i}`,
          manager: 'npm',
          name: `pkg${i}`,
          version: null,
          reason: 'needed',
        });
      }
      return tr('running', 'waiting_human', { waitReason, resumeMovement, askCount });
    }
    case 'waiting_subtasks':
      return tr('running', 'waiting_subtasks', { resumeMovement });
    case 'retry':
      return tr('running', 'retry', {
        nextRetryAt: Date.now() + 60_000,
        error: 'flaky',
        resumeMovement,
        workerId: null,
      });
    case 'succeeded':
      return tr('running', 'succeeded', { result: 'done', resumeMovement: null });
    case 'failed':
      return tr('running', 'failed', { error: 'fatal', resumeMovement, askCount });
    default:
      throw new Error(`test setup: cannot move to ${status}`);
  }
}

/** A child job of `parentJobId` in a task of its own (as create_subtask makes it). */
export function insertChildJob(store: Store, parentTaskId: string, parentJobId: string): JobRecord {
  const id = `task_child_${Math.random().toString(36).slice(2)}`;
  store.tasks.insert({
    id,
    title: 'child',
    instruction: 'sub work',
    pieceId: 'default',
    workspacePath: '/tmp',
    workspaceKind: 'persistent',
    profile: null,
    parentTaskId,
    createdAt: Date.now(),
  });
  return store.jobs.insert({ taskId: id, pieceId: 'default', profile: null, pendingInvoke: 'Notify', parentJobId });
}
