// The approval cards' data: loaded with the task, folded from events without a decision ever going back to pending,
// hidden once their job ended; decisions fold their answer, refusals are reported and reload what was stale; the
// bell learns why a task waits after a reload; a job's end is a toast once.
import { describe, expect, it } from 'vitest';
import type { Job, Task, ToolRequest } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { jobFixture, taskFixture } from '../test-fixtures';
import { actionItems } from './action-items';
import { selectDetail, selectLatestJobs, selectTasks } from './entity-selectors';
import { pendingRequests } from './requests-slice';
import { createAppStore } from './store';

const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();
const task = (id: string, status: Task['status']): Task => taskFixture({ id, createdAt: at(0), status });
const job = (id: string, s: number, status: Job['status'], waitReason: Job['waitReason'] = null): Job =>
  jobFixture({ id, taskId: 't', createdAt: at(1), updatedAt: at(s), status, waitReason });
const request = (id: string, status: ToolRequest['status'] = 'pending'): ToolRequest => ({
  id,
  taskId: 't',
  jobId: 'j1',
  callId: `call-${id}`,
  tool: 'run_command',
  summary: '$ npm test',
  status,
  scope: status === 'approved' ? 'once' : null,
  createdAt: at(2),
  decidedAt: null,
  denyReason: null,
});
let seq = 0;
const event = (e: Record<string, unknown> & { type: MaestroEvent['type'] }) =>
  ({ seq: ++seq, ts: at(0), taskId: 't', jobId: 'j1', ...e }) as MaestroEvent;
const client = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});
const parked = job('j1', 3, 'waiting_human', 'tool_request');

describe('approval requests in the store', () => {
  it('loads the pending requests with the task and never lets a decided one come back as pending', async () => {
    let listed: ToolRequest[] = [request('r1')];
    const store = createAppStore(
      client({
        getTaskRecent: async () => ({
          task: task('t', 'waiting_human'),
          jobs: [parked],
          comments: [],
          steps: [],
          olderCount: 0,
        }),
        listToolRequests: async () => ({ requests: listed }),
        listPackageRequests: async () => ({ requests: [] }),
      }),
    );
    await store.getState().selectTask('t');
    const s = () => store.getState();
    expect(pendingRequests(s().entities.requests, selectDetail(s())?.jobs ?? []).tool.map((r) => r.id)).toEqual(['r1']);

    s().applyEvent(event({ type: 'tool_request.changed', request: request('r1', 'approved') }));
    // An answer that left the server before the decision.
    await s().refreshRequests('t');
    expect(s().entities.requests?.tool.map((r) => r.status)).toEqual(['approved']);
    expect(pendingRequests(s().entities.requests, selectDetail(s())?.jobs ?? []).tool).toEqual([]);

    // Another request of the same job arrives; then the job is cancelled: no card is left for it.
    listed = [request('r1', 'approved'), request('r2')];
    s().applyEvent(event({ type: 'tool_request.changed', request: request('r2') }));
    expect(pendingRequests(s().entities.requests, selectDetail(s())?.jobs ?? []).tool.map((r) => r.id)).toEqual(['r2']);
    s().applyEvent(event({ type: 'job.changed', job: job('j1', 5, 'cancelled') }));
    expect(pendingRequests(s().entities.requests, selectDetail(s())?.jobs ?? []).tool).toEqual([]);
  });

  it('folds a decision, and on already_decided reports it and reloads', async () => {
    let loads = 0;
    let refuse = false;
    const store = createAppStore(
      client({
        getTaskRecent: async () => {
          loads++;
          return { task: task('t', 'waiting_human'), jobs: [parked], comments: [], steps: [], olderCount: 0 };
        },
        listToolRequests: async () => ({ requests: [request('r1')] }),
        listPackageRequests: async () => ({ requests: [] }),
        decideToolRequest: async ({ requestId }) => {
          if (refuse) throw new ApiError('already_decided', `request ${requestId} is already approved`);
          return { request: request(requestId, 'approved') };
        },
      }),
    );
    await store.getState().selectTask('t');
    const s = () => store.getState();
    refuse = true;
    const refused = await s().decideToolRequest({ taskId: 't', requestId: 'r1', decision: 'approve' });
    expect(!refused.ok && refused.error.code).toBe('already_decided');
    expect(s().toasts.at(-1)).toMatchObject({ tone: 'error' });
    expect(loads).toBe(2);

    refuse = false;
    await expect(s().decideToolRequest({ taskId: 't', requestId: 'r1', decision: 'approve' })).resolves.toEqual({
      ok: true,
    });
    expect(s().entities.requests?.tool.map((r) => r.status)).toEqual(['approved']);
  });

  it('reloads the task when a comment meets approval_pending, so the card shows', async () => {
    let view: Job = job('j1', 2, 'queued');
    const store = createAppStore(
      client({
        getTaskRecent: async () => ({
          task: task('t', view.status),
          jobs: [view],
          comments: [],
          steps: [],
          olderCount: 0,
        }),
        listToolRequests: async () => ({ requests: view.status === 'waiting_human' ? [request('r1')] : [] }),
        listPackageRequests: async () => ({ requests: [] }),
        addComment: async () => {
          throw new ApiError('approval_pending', 'approve or deny it first');
        },
      }),
    );
    await store.getState().selectTask('t');
    view = parked;
    const outcome = await store.getState().sendComment('t', 'hurry');
    expect(outcome.ok).toBe(false);
    expect(store.getState().entities.requests?.tool.map((r) => r.id)).toEqual(['r1']);
    expect(selectDetail(store.getState())?.jobs.at(-1)?.status).toBe('waiting_human');
  });

  it('learns why a listed task waits, and toasts the end of a job once', async () => {
    const store = createAppStore(
      client({
        listTasks: async () => ({ tasks: [task('t', 'waiting_human')], nextCursor: null }),
        getTaskRecent: async () => ({
          task: task('t', 'waiting_human'),
          jobs: [parked],
          comments: [],
          steps: [],
          olderCount: 0,
        }),
      }),
    );
    const s = () => store.getState();
    await s().loadTasks();
    expect(actionItems(selectTasks(s()), selectLatestJobs(s()), s().dismissedFailures)).toMatchObject([
      { reason: 'tool_request' },
    ]);

    s().applyEvent(event({ type: 'job.changed', job: job('j1', 6, 'succeeded') }));
    s().applyEvent(event({ type: 'job.changed', job: job('j1', 6, 'succeeded') }));
    expect(s().toasts.map((t) => t.tone)).toEqual(['ok']);
    expect(actionItems(selectTasks(s()), selectLatestJobs(s()), s().dismissedFailures)).toEqual([]);
  });
});

describe('a job answered over HTTP after its events', () => {
  it('keeps the newer pushed state', async () => {
    const store = createAppStore(
      client({
        getTaskRecent: async () => ({
          task: task('t', 'waiting_human'),
          jobs: [job('j1', 1, 'waiting_human', 'ask')],
          comments: [],
          steps: [],
          olderCount: 0,
        }),
        addComment: async () => ({
          comment: {
            id: 'c',
            taskId: 't',
            jobId: 'j2',
            author: 'user',
            kind: 'answer',
            body: 'Blue',
            createdAt: at(4),
          },
          disposition: 'followup_job',
          job: { ...job('j2', 4, 'queued'), createdAt: at(4) },
        }),
      }),
    );
    const s = () => store.getState();
    await s().selectTask('t');
    const running = { ...job('j2', 5, 'running'), createdAt: at(4) };
    s().applyEvent(event({ type: 'job.changed', jobId: 'j2', job: running }));
    await s().sendComment('t', 'Blue');
    expect(selectDetail(s())?.jobs.at(-1)?.status).toBe('running');
    expect(selectTasks(s())).toEqual([]);
    expect(selectLatestJobs(s()).t?.status).toBe('running');
  });
});
