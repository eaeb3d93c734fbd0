// Comments a page at a time: the latest page on select and refresh, earlier pages on demand, without gaps, duplicates
// or a stale page landing after a refresh or a task switch.
import { describe, expect, it } from 'vitest';
import { CHAT_PAGE_SIZE } from '../../../src-shared/contract';
import type { ChatStep, Comment, Job, Task } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import { ApiError, type MaestroApi, type MaestroClient } from '../api/client';
import { jobFixture, stepFixture, taskFixture } from '../test-fixtures';
import { foldLatestPage } from './chat-fold';
import { selectDetail } from './entity-selectors';
import { createAppStore } from './store';

const at = (s: number) => new Date(Date.UTC(2025, 0, 1) + s * 1000).toISOString();

const task = (id: string): Task => taskFixture({ id, instruction: 'do it', createdAt: at(0), status: 'succeeded' });

const job = (taskId: string): Job =>
  jobFixture({ id: `job-${taskId}`, taskId, createdAt: at(0), updatedAt: at(0), status: 'succeeded', attempt: 1 });

const comment = (taskId: string, i: number): Comment => ({
  id: `${taskId}-c${i}`,
  taskId,
  jobId: `job-${taskId}`,
  author: 'user',
  kind: 'comment',
  body: `#${i}`,
  createdAt: at(i),
});

/** A server holding `count` comments per task, answering pages as the bridge does; it records what was asked. */
function pagedServer(counts: Record<string, number>) {
  const comments: Record<string, Comment[]> = {};
  for (const [taskId, count] of Object.entries(counts)) {
    comments[taskId] = Array.from({ length: count }, (_, i) => comment(taskId, i));
  }
  const asked: string[] = [];
  /** While set, listChatBefore waits for it; a test releases it to control the order of answers. */
  let gate: Promise<void> | null = null;
  let failNext = false;
  const api: Partial<MaestroApi> = {
    getTaskRecent: async ({ taskId }) => {
      asked.push(`recent ${taskId}`);
      const all = comments[taskId] ?? [];
      const page = all.slice(-CHAT_PAGE_SIZE);
      return {
        task: task(taskId),
        jobs: [job(taskId)],
        comments: page,
        steps: [],
        olderCount: all.length - page.length,
      };
    },
    listChatBefore: async ({ taskId, itemId: commentId }) => {
      asked.push(`before ${commentId}`);
      await gate;
      if (failNext) {
        failNext = false;
        throw new ApiError('network', 'the bridge is down');
      }
      const all = comments[taskId] ?? [];
      const end = all.findIndex((c) => c.id === commentId);
      if (end === -1) throw new ApiError('not_found', `comment ${commentId} of task ${taskId} does not exist`);
      const start = Math.max(0, end - CHAT_PAGE_SIZE);
      return { comments: all.slice(start, end), steps: [], olderCount: start };
    },
    listToolRequests: async () => ({ requests: [] }),
    listPackageRequests: async () => ({ requests: [] }),
    getUsage: async () => ({
      total: { llmCalls: 0, promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 },
      totalUsd: null,
      jobs: [],
      invokes: [],
    }),
    getContextGauge: async () => ({ context: null }),
  };
  const client: MaestroClient = { transport: 'http', api: api as MaestroApi, subscribe: () => () => {} };
  return {
    client,
    comments,
    asked,
    add(taskId: string, n: number) {
      const list = comments[taskId] as Comment[];
      const added = Array.from({ length: n }, (_, i) => comment(taskId, list.length + i));
      list.push(...added);
      return added;
    },
    hold() {
      let release = () => {};
      gate = new Promise((resolve) => {
        release = resolve;
      });
      return () => {
        gate = null;
        release();
      };
    },
    failOnce() {
      failNext = true;
    },
  };
}

let seq = 0;
const pushed = (c: Comment) =>
  ({
    seq: ++seq,
    ts: c.createdAt,
    jobId: c.jobId,
    type: 'comment.created',
    taskId: c.taskId,
    comment: c,
  }) as MaestroEvent;

const ids = (list: readonly Comment[] | undefined) => (list ?? []).map((c) => c.id);

describe('comment paging in the store', () => {
  it('a task opens with its latest page and the count of older comments; earlier pages load back to the first', async () => {
    const total = CHAT_PAGE_SIZE * 2 + 50;
    const server = pagedServer({ t: total });
    const store = createAppStore(server.client);
    const s = () => store.getState();
    await s().selectTask('t');
    expect(server.asked).toEqual(['recent t']);
    expect(ids(selectDetail(s())?.comments)).toEqual(ids(server.comments.t?.slice(-CHAT_PAGE_SIZE)));
    expect(selectDetail(s())?.olderCount).toBe(total - CHAT_PAGE_SIZE);

    const counts: number[] = [];
    while ((selectDetail(s())?.olderCount ?? 0) > 0) {
      await s().loadOlderComments();
      counts.push(selectDetail(s())?.olderCount ?? -1);
    }
    expect(counts).toEqual([50, 0]);
    expect(ids(selectDetail(s())?.comments)).toEqual(ids(server.comments.t));
    expect(server.asked.slice(1)).toEqual([`before t-c${total - CHAT_PAGE_SIZE}`, 'before t-c50']);
    expect(selectDetail(s())?.olderLoad).toBe('idle');

    // Nothing older: no request.
    await s().loadOlderComments();
    expect(server.asked).toHaveLength(3);
  });

  it('one page request at a time; a failed one is marked and can be asked again', async () => {
    const server = pagedServer({ t: CHAT_PAGE_SIZE + 10 });
    const store = createAppStore(server.client);
    const s = () => store.getState();
    await s().selectTask('t');
    const release = server.hold();
    const first = s().loadOlderComments();
    const second = s().loadOlderComments();
    expect(selectDetail(s())?.olderLoad).toBe('loading');
    release();
    await Promise.all([first, second]);
    expect(server.asked.filter((a) => a.startsWith('before'))).toHaveLength(1);
    expect(selectDetail(s())?.comments).toHaveLength(CHAT_PAGE_SIZE + 10);

    const other = pagedServer({ t: CHAT_PAGE_SIZE + 10 });
    const failing = createAppStore(other.client);
    await failing.getState().selectTask('t');
    other.failOnce();
    await failing.getState().loadOlderComments();
    expect(selectDetail(failing.getState())).toMatchObject({ olderLoad: 'error', olderCount: 10 });
    expect(selectDetail(failing.getState())?.comments).toHaveLength(CHAT_PAGE_SIZE);
    await failing.getState().loadOlderComments();
    expect(selectDetail(failing.getState())).toMatchObject({ olderLoad: 'idle', olderCount: 0 });
    expect(ids(selectDetail(failing.getState())?.comments)).toEqual(ids(other.comments.t));
  });

  it('pushed comments join the end; a refresh keeps the earlier pages loaded and adds what it missed', async () => {
    const server = pagedServer({ t: CHAT_PAGE_SIZE + 30 });
    const store = createAppStore(server.client);
    const s = () => store.getState();
    await s().selectTask('t');
    await s().loadOlderComments();
    const [live] = server.add('t', 1);
    s().applyEvent(pushed(live as Comment));
    s().applyEvent(pushed(live as Comment));
    expect(ids(selectDetail(s())?.comments)).toEqual(ids(server.comments.t));
    // Two more arrive while the stream is down; the refresh on reconnecting brings them.
    server.add('t', 2);
    await s().refreshDetail();
    expect(ids(selectDetail(s())?.comments)).toEqual(ids(server.comments.t));
    expect(selectDetail(s())?.olderCount).toBe(0);
  });

  it('a refresh after more than a page arrived unseen replaces the comments, so no gap is left', async () => {
    const server = pagedServer({ t: CHAT_PAGE_SIZE + 30 });
    const store = createAppStore(server.client);
    const s = () => store.getState();
    await s().selectTask('t');
    server.add('t', CHAT_PAGE_SIZE + 5);
    await s().refreshDetail();
    const all = server.comments.t as Comment[];
    expect(ids(selectDetail(s())?.comments)).toEqual(ids(all.slice(-CHAT_PAGE_SIZE)));
    expect(selectDetail(s())?.olderCount).toBe(all.length - CHAT_PAGE_SIZE);
    // Paging back from there fills in what was skipped.
    while ((selectDetail(s())?.olderCount ?? 0) > 0) await s().loadOlderComments();
    expect(ids(selectDetail(s())?.comments)).toEqual(ids(all));
  });

  it('a page that arrives after a refresh replaced the comments, or after a task switch, is dropped', async () => {
    const server = pagedServer({ t: CHAT_PAGE_SIZE + 30, u: 3 });
    const store = createAppStore(server.client);
    const s = () => store.getState();
    await s().selectTask('t');
    let release = server.hold();
    const late = s().loadOlderComments();
    server.add('t', CHAT_PAGE_SIZE + 1);
    await s().refreshDetail();
    release();
    await late;
    const all = server.comments.t as Comment[];
    expect(ids(selectDetail(s())?.comments)).toEqual(ids(all.slice(-CHAT_PAGE_SIZE)));
    expect(selectDetail(s())).toMatchObject({ olderCount: all.length - CHAT_PAGE_SIZE, olderLoad: 'idle' });

    release = server.hold();
    const switched = s().loadOlderComments();
    await s().selectTask('u');
    release();
    await switched;
    expect(ids(selectDetail(s())?.comments)).toEqual(['u-c0', 'u-c1', 'u-c2']);
    expect(selectDetail(s())).toMatchObject({ taskId: 'u', olderCount: 0, olderLoad: 'idle' });
  });

  it('foldLatestPage: an overlapping page merges, a disjoint one replaces but keeps what was pushed after it', () => {
    const c = (i: number) => comment('t', i);
    const none = { steps: [] };
    const page = { comments: [c(5), c(6), c(7)], ...none, olderCount: 5 };
    expect(foldLatestPage({ comments: [c(3), c(4), c(5), c(6)], ...none, olderCount: 3 }, page)).toEqual({
      comments: [c(3), c(4), c(5), c(6), c(7)],
      ...none,
      olderCount: 3,
    });
    expect(foldLatestPage({ comments: [c(1), c(2), c(8)], ...none, olderCount: 1 }, page)).toEqual({
      comments: [c(5), c(6), c(7), c(8)],
      ...none,
      olderCount: 5,
    });
    expect(
      foldLatestPage({ comments: [c(9)], ...none, olderCount: 0 }, { comments: [c(0), c(1)], ...none, olderCount: 0 }),
    ).toEqual({ comments: [c(0), c(1), c(9)], ...none, olderCount: 0 });
  });

  it('foldLatestPage with steps: a page starting at a known step merges; a step read again keeps answers folded from events', () => {
    const c = (i: number) => comment('t', i);
    const answered = step(4, { ok: true, content: 'done', chars: 4 });
    const page = { comments: [c(5)], steps: [step(4, null), step(6, null)], olderCount: 4 };
    expect(foldLatestPage({ comments: [c(3)], steps: [answered], olderCount: 3 }, page)).toEqual({
      comments: [c(3), c(5)],
      steps: [answered, step(6, null)],
      olderCount: 3,
    });
    // Disjoint: the items before the page's last one go, the step pushed after it stays.
    expect(foldLatestPage({ comments: [c(1)], steps: [step(2, null), step(8, null)], olderCount: 1 }, page)).toEqual({
      comments: [c(5)],
      steps: [step(4, null), step(6, null), step(8, null)],
      olderCount: 4,
    });
  });
});

/** A step at second `i` of this file's clock with one call answered `result`. */
function step(i: number, result: ChatStep['toolCalls'][number]['result']): ChatStep {
  return stepFixture(i, 0, {
    jobId: 'job-t',
    createdAt: at(i),
    text: `step ${i}`,
    toolCalls: [{ id: `call${i}`, name: 'read_file', arguments: '{}', result }],
  });
}
