import { describe, expect, it } from 'vitest';
import { CHAT_PAGE_SIZE, type OperationName } from '../../src-shared/contract';
import { rowCounts } from '../../test-support/db';
import { expectMaestroError, moveTo, setup } from '../../test-support/tasks';
import { transcriptOf } from '../../test-support/transcript-lines';

describe('reads and unknown ids', () => {
  const byTaskId: [OperationName, Record<string, unknown>][] = [
    ['getTask', {}],
    ['getTaskRecent', {}],
    ['listChatBefore', { itemId: 'cmt_x' }],
    ['addComment', { body: 'hello' }],
    ['continueTask', {}],
    ['continueTask', { pieceId: 'default', instruction: 'x' }],
    ['cancelTask', {}],
    ['listToolRequests', {}],
    ['decideToolRequest', { requestId: 'treq_x', decision: 'approve' }],
    ['listPackageRequests', {}],
    ['decidePackageRequest', { requestId: 'preq_x', decision: 'deny' }],
    ['getTranscript', {}],
    ['getUsage', {}],
  ];
  it.each(byTaskId)('P1.04 %s with an unknown task id → not_found; nothing changes', (name, extra) => {
    const { m, store, create } = setup();
    create();
    const counts = rowCounts(store);
    const error = expectMaestroError(() => m.invoke(name, { taskId: 'task_unknown', ...extra }), 'not_found');
    expect(error.toBody()).toEqual({ code: 'not_found', message: expect.stringContaining('task_unknown') });
    expect(rowCounts(store)).toEqual(counts);
  });

  it('P1.24 tasks newest first; Task.status = the latest job’s status; jobs and comments in createdAt order', () => {
    const { m, store, create } = setup();
    const a = create({ instruction: 'a' }).task;
    const b = create({ instruction: 'b' }).task;
    const c = create({ instruction: 'c' }).task;
    expect(m.invoke('listTasks', {}).tasks.map((t) => t.id)).toEqual([c.id, b.id, a.id]);

    const first = store.jobs.latestForTask(a.id)?.id as string;
    moveTo(store, first, 'running');
    expect(m.invoke('listTasks', {}).tasks.find((t) => t.id === a.id)?.status).toBe('running');
    m.invoke('addComment', { taskId: a.id, body: 'interject' });
    store.jobs.transition(first, 'running', 'succeeded');
    const follow = m.invoke('addComment', { taskId: a.id, body: 'follow up' });
    const got = m.invoke('getTask', { taskId: a.id });
    expect(got.task.status).toBe('queued');
    expect(got.jobs.map((j) => j.id)).toEqual([first, follow.job?.id]);
    expect(got.jobs.map((j) => j.status)).toEqual(['succeeded', 'queued']);
    expect(got.comments.map((cm) => cm.body)).toEqual(['a', 'interject', 'follow up']);
    for (const list of [got.jobs, got.comments]) {
      const times = list.map((x) => x.createdAt);
      expect([...times].sort()).toEqual(times);
    }
    expect(got.jobs[0]).not.toHaveProperty('pendingInvoke');
  });

  it('getTaskRecent: getTask with the latest page of comments and the count of older ones; paged back to the first', () => {
    const { m, store, create } = setup();
    const { task, job } = create({ instruction: 'comment 0' });
    const total = CHAT_PAGE_SIZE * 2 + 17;
    store.transact(() => {
      for (let i = 1; i < total; i++) {
        store.comments.insert({
          taskId: task.id,
          jobId: job.id,
          author: 'user',
          kind: 'comment',
          body: `comment ${i}`,
        });
      }
    });
    const all = m.invoke('getTask', { taskId: task.id });
    expect(all.comments).toHaveLength(total);
    const recent = m.invoke('getTaskRecent', { taskId: task.id });
    expect(recent.task).toEqual(all.task);
    expect(recent.jobs).toEqual(all.jobs);
    expect(recent.comments).toEqual(all.comments.slice(-CHAT_PAGE_SIZE));
    expect(recent.olderCount).toBe(total - CHAT_PAGE_SIZE);

    const pages = [recent.comments];
    const counts = [recent.olderCount];
    for (let page = recent; page.olderCount > 0; ) {
      page = { ...page, ...m.invoke('listChatBefore', { taskId: task.id, itemId: page.comments[0]?.id ?? '' }) };
      pages.unshift(page.comments);
      counts.push(page.olderCount);
    }
    expect(pages.map((p) => p.length)).toEqual([17, CHAT_PAGE_SIZE, CHAT_PAGE_SIZE]);
    expect(counts).toEqual([total - CHAT_PAGE_SIZE, 17, 0]);
    expect(pages.flat()).toEqual(all.comments);

    // A short task comes whole.
    const short = create({ instruction: 'short' }).task;
    expect(m.invoke('getTaskRecent', { taskId: short.id })).toMatchObject({
      comments: [expect.objectContaining({ body: 'short' })],
      olderCount: 0,
    });
  });

  it('P1.04 listChatBefore: an unknown item or another task’s comment → not_found naming it; nothing changes', () => {
    const { m, store, create } = setup();
    const one = create().task;
    const two = create().task;
    const [theirs] = m.invoke('getTask', { taskId: two.id }).comments;
    const counts = rowCounts(store);
    for (const itemId of ['cmt_unknown', 'step:12345', 'step:', theirs?.id ?? '']) {
      const error = expectMaestroError(() => m.invoke('listChatBefore', { taskId: one.id, itemId }), 'not_found');
      expect(error.message).toContain(itemId);
      expect(error.message).toContain(one.id);
    }
    expectMaestroError(() => m.invoke('listChatBefore', { taskId: one.id, itemId: '' }), 'invalid_input');
    expect(rowCounts(store)).toEqual(counts);
  });

  it('listToolRequests / listPackageRequests return only that task’s requests, without call arguments', () => {
    const { m, store, create } = setup();
    const one = create();
    const two = create();
    moveTo(store, one.job.id, 'waiting_human', { waitReason: 'tool_request', toolRequests: 1, packageRequests: 1 });
    moveTo(store, two.job.id, 'waiting_human', { waitReason: 'tool_request', toolRequests: 2 });
    const tools = m.invoke('listToolRequests', { taskId: one.task.id }).requests;
    expect(tools).toHaveLength(1);
    expect(tools[0]).toMatchObject({
      taskId: one.task.id,
      tool: 'run_command',
      summary: 'run echo 0',
      status: 'pending',
    });
    expect(tools[0]).not.toHaveProperty('args');
    expect(m.invoke('listToolRequests', { taskId: two.task.id }).requests).toHaveLength(2);
    const packages = m.invoke('listPackageRequests', { taskId: one.task.id }).requests;
    expect(packages).toEqual([
      expect.objectContaining({ manager: 'npm', name: 'pkg0', version: null, reason: 'needed' }),
    ]);
    expect(m.invoke('listPackageRequests', { taskId: two.task.id }).requests).toEqual([]);
  });

  it('P6.29 getTranscript: no file → no entries; entries = the replayable conversation; a torn line is skipped', () => {
    const { m, create } = setup();
    const { task } = create();
    expect(m.invoke('getTranscript', { taskId: task.id })).toEqual({ entries: [] });
    transcriptOf(m, task.id).replace(
      '{"ts":"t","jobId":"j","message":{"role":"system","content":"S"}}\n{"ts":"t","jobId":"j","message":{"role":"user","content":"hi"}}\n{"ts":"t","jobId":"j","message":{"role":"assis',
    );
    expect(m.invoke('getTranscript', { taskId: task.id }).entries).toEqual([{ role: 'user', content: 'hi' }]);
  });
});
