// The store folds responses and pushed events together: newest first, no duplicates, status from the latest job.
import { describe, expect, it, vi } from 'vitest';
import type { Comment, Job, Task } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import type { MaestroApi, MaestroClient } from '../api/client';
import { jobFixture, taskFixture } from '../test-fixtures';
import { selectDetail, selectTasks } from './entity-selectors';
import { createAppStore } from './store';

const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();

const task = (id: string, s: number, status: Task['status'] = 'queued'): Task =>
  taskFixture({ id, instruction: `do ${id}`, createdAt: at(s), status });

const job = (id: string, taskId: string, s: number, status: Job['status'] = 'queued'): Job =>
  jobFixture({ id, taskId, createdAt: at(s), updatedAt: at(s), status });

const comment = (id: string, taskId: string, s: number, kind: Comment['kind'] = 'comment'): Comment => ({
  id,
  taskId,
  jobId: null,
  author: 'user',
  kind,
  body: id,
  createdAt: at(s),
});

let seq = 0;
const event = (e: Record<string, unknown> & { type: MaestroEvent['type']; taskId: string }) =>
  ({ seq: ++seq, ts: at(0), jobId: null, ...e }) as MaestroEvent;

function fakeClient(api: Partial<MaestroApi>): MaestroClient {
  return { transport: 'http', api: api as MaestroApi, subscribe: () => () => {} };
}

describe('the app store', () => {
  it('keeps the task list newest first and without duplicates as tasks arrive', async () => {
    const store = createAppStore(
      fakeClient({ listTasks: async () => ({ tasks: [task('a', 1), task('b', 2)], nextCursor: null }) }),
    );
    await store.getState().loadTasks();
    expect(selectTasks(store.getState()).map((t) => t.id)).toEqual(['b', 'a']);

    store.getState().applyEvent(event({ type: 'task.created', taskId: 'c', task: task('c', 3) }));
    store.getState().applyEvent(event({ type: 'task.created', taskId: 'c', task: task('c', 3) }));
    expect(selectTasks(store.getState()).map((t) => t.id)).toEqual(['c', 'b', 'a']);
  });

  it("moves a task's status with its latest job only", () => {
    const store = createAppStore(fakeClient({}));
    store.getState().applyEvent(event({ type: 'job.changed', taskId: 't', job: job('j1', 't', 1) }));
    store.getState().applyEvent(event({ type: 'task.created', taskId: 't', task: task('t', 1) }));
    store.getState().applyEvent(event({ type: 'job.changed', taskId: 't', job: job('j2', 't', 5, 'running') }));
    // A late change of the older job does not overwrite the newer job's status.
    store.getState().applyEvent(event({ type: 'job.changed', taskId: 't', job: job('j1', 't', 1, 'succeeded') }));
    expect(selectTasks(store.getState())[0]?.status).toBe('running');
  });

  it('folds comments and jobs into the selected task, including those pushed before its detail loaded', async () => {
    let answer: (value: Awaited<ReturnType<MaestroApi['getTaskRecent']>>) => void = () => {};
    const store = createAppStore(
      fakeClient({
        getTaskRecent: () =>
          new Promise((resolve) => {
            answer = resolve;
          }),
      }),
    );
    const selecting = store.getState().selectTask('t');
    store.getState().applyEvent(event({ type: 'comment.created', taskId: 't', comment: comment('c2', 't', 2) }));
    store.getState().applyEvent(event({ type: 'comment.created', taskId: 'other', comment: comment('x', 'other', 2) }));
    answer({
      task: task('t', 1),
      jobs: [job('j1', 't', 1)],
      comments: [comment('c1', 't', 1, 'instruction')],
      steps: [],
      olderCount: 0,
    });
    await selecting;

    const detail = selectDetail(store.getState());
    expect(detail?.task?.id).toBe('t');
    expect(detail?.comments.map((c) => c.id)).toEqual(['c1', 'c2']);

    store.getState().applyEvent(event({ type: 'comment.created', taskId: 't', comment: comment('c2', 't', 2) }));
    store.getState().applyEvent(event({ type: 'job.changed', taskId: 't', job: job('j1', 't', 1, 'cancelled') }));
    expect(selectDetail(store.getState())?.comments).toHaveLength(2);
    expect(selectDetail(store.getState())?.task?.status).toBe('cancelled');
  });

  it('records the disposition of a sent comment and keeps the error of a refused one', async () => {
    const { ApiError } = await import('../api/client');
    let refuse = false;
    const store = createAppStore(
      fakeClient({
        getTaskRecent: async () => ({
          task: task('t', 1),
          jobs: [job('j1', 't', 1)],
          comments: [],
          steps: [],
          olderCount: 0,
        }),
        addComment: async ({ taskId, body }) => {
          if (refuse) throw new ApiError('approval_pending', 'decide first');
          return { comment: comment(body, taskId, 3), disposition: 'reused_job', job: job('j1', taskId, 1) };
        },
      }),
    );
    await store.getState().selectTask('t');
    await expect(store.getState().sendComment('t', 'hello')).resolves.toMatchObject({
      ok: true,
      disposition: 'reused_job',
    });
    expect(store.getState().dispositions.hello).toBe('reused_job');
    expect(selectDetail(store.getState())?.comments.map((c) => c.id)).toEqual(['hello']);

    refuse = true;
    const refused = await store.getState().sendComment('t', 'again');
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.code).toBe('approval_pending');
  });

  it('streams a running job, reloads usage on TurnEnd, and gives way to the persisted result without duplicates', async () => {
    const usage = { llmCalls: 1, promptTokens: 10, completionTokens: 4, cachedPromptTokens: 0 };
    let usageCalls = 0;
    const store = createAppStore(
      fakeClient({
        getTaskRecent: async () => ({
          task: task('t', 1),
          jobs: [job('j1', 't', 1)],
          comments: [comment('c1', 't', 1)],
          steps: [],
          olderCount: 0,
        }),
        getUsage: async () => {
          usageCalls++;
          return { total: usage, totalUsd: null, jobs: [], invokes: [] };
        },
        getContextGauge: async () => ({ context: null }),
      }),
    );
    await store.getState().selectTask('t');
    const afterSelect = usageCalls;
    expect(afterSelect).toBe(1);
    const s = () => store.getState();
    const e = (x: Record<string, unknown> & { type: MaestroEvent['type'] }) =>
      s().applyEvent(event({ taskId: 't', jobId: 'j1', ...x }));

    e({ type: 'job.changed', job: { ...job('j1', 't', 1, 'running'), updatedAt: at(2) } });
    e({ type: 'movement.entered', movement: 'work' });
    e({ type: 'TurnStart', turnCount: 1 });
    e({ type: 'LlmCallStart', llmCallCount: 1, attempt: 1 });
    e({ type: 'stream.delta', seq: 0, text: 'Hello ', reasoning: '', toolCalls: [] });
    e({ type: 'stream.delta', seq: 0, text: 'world', reasoning: '', toolCalls: [] });
    expect(s().entities.streams.t?.turns[0]?.text).toBe('Hello world');
    expect(s().entities.movementTrails.j1).toEqual(['work']);

    // A getTaskRecent answer that left the server before the claim does not undo the running status.
    await s().refreshDetail();
    expect(selectDetail(s())?.jobs[0]?.status).toBe('running');
    expect(s().entities.streams.t?.turns[0]?.text).toBe('Hello world');

    e({
      type: 'LlmCallEnd',
      llmCallCount: 1,
      attempt: 1,
      outcome: 'ok',
      latencyMs: 1,
      ttftMs: 1,
      usage,
      cachedPromptTokens: 0,
    });
    e({ type: 'TurnEnd', turnCount: 1, usage });
    await Promise.resolve();
    expect(usageCalls).toBeGreaterThan(afterSelect);

    const done = { ...job('j1', 't', 1, 'succeeded'), updatedAt: at(3) };
    e({ type: 'job.changed', job: done });
    expect(s().entities.streams.t?.llm).toBe('idle');
    const result: Comment = { ...comment('r1', 't', 3, 'result'), author: 'agent', jobId: 'j1', body: 'Hello world' };
    e({ type: 'comment.created', comment: result });
    e({ type: 'comment.created', comment: result });
    expect(s().entities.streams.t).toBeUndefined();
    expect(selectDetail(s())?.comments.map((c) => c.id)).toEqual(['c1', 'r1']);
    // The trail of movements outlives the transient stream.
    expect(s().entities.movementTrails.j1).toEqual(['work']);
  });
});

describe('the live stream', () => {
  it('folds the events that arrive in one task together, in order, right after it (an SSE chunk renders once)', async () => {
    let push: (event: MaestroEvent) => void = () => {};
    const client: MaestroClient = {
      transport: 'http',
      api: {} as MaestroApi,
      subscribe: (listener) => {
        push = listener;
        return () => {};
      },
    };
    const store = createAppStore(client);
    const stop = store.getState().startLive();
    push(event({ type: 'task.created', taskId: 'a', task: task('a', 1) }));
    push(event({ type: 'task.created', taskId: 'b', task: task('b', 2) }));
    push(event({ type: 'task.created', taskId: 'c', task: task('c', 3) }));
    // Nothing yet within the task that received them...
    expect(selectTasks(store.getState())).toEqual([]);
    // ...then all of them at once, in order (a MessageChannel message has no fixed place among Node's timers, so wait).
    await vi.waitFor(() => expect(selectTasks(store.getState()).length).toBeGreaterThan(0));
    expect(selectTasks(store.getState()).map((t) => t.id)).toEqual(['c', 'b', 'a']);
    stop();
  });
});
