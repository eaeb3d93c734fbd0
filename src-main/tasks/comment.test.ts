import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawJob, rowCounts } from '../../test-support/db';
import { expectMaestroError, insertChildJob, moveTo, setup } from '../../test-support/tasks';

describe('addComment: the task write gate', () => {
  it('P1.05 while the latest job is running → interjection persisted for that job; no new job', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'running');
    const counts = rowCounts(store);
    const out = m.invoke('addComment', { taskId: task.id, body: 'also mention WAL' });
    expect(out.disposition).toBe('interjection');
    expect(out.job).toMatchObject({ id: job.id, status: 'running' });
    expect(out.comment).toMatchObject({
      kind: 'interjection',
      author: 'user',
      jobId: job.id,
      body: 'also mention WAL',
    });
    expect(store.comments.undeliveredInterjections(job.id)).toEqual([out.comment]);
    expect(rowCounts(store)).toMatchObject({ jobs: counts.jobs, comments: (counts.comments as number) + 1 });
    expect(store.jobs.get(job.id)?.status).toBe('running');
  });

  it('P1.06 while the latest job is waiting_subtasks → interjection kept pending for that job', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'waiting_subtasks');
    const out = m.invoke('addComment', { taskId: task.id, body: 'hurry' });
    expect(out.disposition).toBe('interjection');
    expect(out.comment.kind).toBe('interjection');
    expect(store.comments.undeliveredInterjections(job.id).map((c) => c.id)).toEqual([out.comment.id]);
    expect(store.jobs.get(job.id)?.status).toBe('waiting_subtasks');
    expect(store.jobs.listForTask(task.id)).toHaveLength(1);
  });

  it.each(['tool_request', 'package_request'] as const)(
    'P1.07 while a %s waits → 409 approval_pending; no comment stored; job unchanged',
    (waitReason) => {
      const { m, store, create } = setup();
      const { task, job } = create();
      moveTo(store, job.id, 'waiting_human', { waitReason });
      const before = rawJob(store, job.id);
      const counts = rowCounts(store);
      const error = expectMaestroError(
        () => m.invoke('addComment', { taskId: task.id, body: 'go on' }),
        'approval_pending',
      );
      expect(error.toBody()).toEqual({ code: 'approval_pending', message: expect.any(String) });
      expect(rowCounts(store)).toEqual(counts);
      expect(rawJob(store, job.id)).toEqual(before);
    },
  );

  it('P1.08 while the latest job is queued → reused_job with that job; no new job', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    const out = m.invoke('addComment', { taskId: task.id, body: 'in five lines' });
    expect(out.disposition).toBe('reused_job');
    expect(out.job).toEqual(job);
    expect(out.comment).toMatchObject({ kind: 'comment', author: 'user', jobId: job.id });
    expect(store.jobs.listForTask(task.id)).toHaveLength(1);
    expect(m.invoke('getTask', { taskId: task.id }).comments.map((c) => c.kind)).toEqual(['instruction', 'comment']);
  });

  it('P1.09 while the latest job is retry → reused_job; attempt and nextRetryAt unchanged', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    const retry = moveTo(store, job.id, 'retry');
    const before = rawJob(store, job.id);
    const out = m.invoke('addComment', { taskId: task.id, body: 'try smaller' });
    expect(out.disposition).toBe('reused_job');
    expect(out.job).toMatchObject({
      id: job.id,
      status: 'retry',
      attempt: retry.attempt,
      nextRetryAt: retry.nextRetryAt,
    });
    expect(rawJob(store, job.id)).toEqual(before);
    expect(store.jobs.listForTask(task.id)).toHaveLength(1);
  });

  it('P1.10 answering an ASK → followup_job; answer comment; resumeMovement and askCount copied; ASK job succeeded', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'waiting_human', { waitReason: 'ask', resumeMovement: 'review', askCount: 2 });
    const out = m.invoke('addComment', { taskId: task.id, body: 'Use five syllables' });
    expect(out.disposition).toBe('followup_job');
    expect(out.job).toMatchObject({
      status: 'queued',
      resumeMovement: 'review',
      askCount: 2,
      continuedFromJobId: null,
      parentJobId: null,
    });
    expect(out.job?.id).not.toBe(job.id);
    expect(store.jobs.get(out.job?.id as string)?.pendingInvoke).toBe('UserSend');
    expect(out.comment).toMatchObject({ kind: 'answer', author: 'user', jobId: out.job?.id });
    expect(store.jobs.get(job.id)).toMatchObject({ status: 'succeeded', waitReason: null });
    expect(m.invoke('getTask', { taskId: task.id }).task.status).toBe('queued');
  });

  it('P1.10 P2.33 an answered ASK of a subtask: the follow-up stays the parent’s child, so the parent keeps waiting', () => {
    const { m, store, create } = setup();
    const parent = create();
    moveTo(store, parent.job.id, 'waiting_subtasks');
    const child = insertChildJob(store, parent.task.id, parent.job.id);
    moveTo(store, child.id, 'waiting_human', { waitReason: 'ask' });
    const out = m.invoke('addComment', { taskId: child.taskId, body: 'answer' });
    expect(out.job?.parentJobId).toBe(parent.job.id);
    expect(store.jobs.get(child.id)?.status).toBe('succeeded');
    expect(store.jobs.get(parent.job.id)?.status).toBe('waiting_subtasks');
    expect(store.jobs.openChildCount(parent.job.id)).toBe(1);
  });

  it('P1.11 after a succeeded job → followup_job from the piece start, askCount inherited, no continuedFromJobId', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    store.jobs.transition(job.id, 'queued', 'running');
    store.jobs.transition(job.id, 'running', 'succeeded', { askCount: 3, resumeMovement: 'review' });
    const out = m.invoke('addComment', { taskId: task.id, body: 'now a limerick' });
    expect(out.disposition).toBe('followup_job');
    expect(out.comment).toMatchObject({ kind: 'comment', jobId: out.job?.id });
    expect(out.job).toMatchObject({ status: 'queued', resumeMovement: null, askCount: 3, continuedFromJobId: null });
    expect(store.jobs.listForTask(task.id)).toHaveLength(2);
  });

  it.each(['failed', 'cancelled'] as const)(
    'P1.11 after a %s job → followup_job keeping resumeMovement and askCount',
    (status) => {
      const { m, store, create } = setup();
      const { task, job } = create();
      if (status === 'failed') moveTo(store, job.id, 'failed', { resumeMovement: 'review', askCount: 1 });
      else {
        moveTo(store, job.id, 'waiting_human', { waitReason: 'ask', resumeMovement: 'review', askCount: 1 });
        store.jobs.transition(job.id, 'waiting_human', 'cancelled');
      }
      const out = m.invoke('addComment', { taskId: task.id, body: 'again' });
      expect(out.disposition).toBe('followup_job');
      expect(out.job).toMatchObject({
        status: 'queued',
        resumeMovement: 'review',
        askCount: 1,
        continuedFromJobId: null,
      });
      expect(store.jobs.get(job.id)?.status).toBe(status);
    },
  );

  it('P1.11 a task with no job at all → followup_job', () => {
    const { m, store } = setup();
    store.tasks.insert({
      id: 'task_nojob',
      title: 't',
      instruction: 'i',
      pieceId: 'default',
      workspacePath: m.ctx.dataDir,
      workspaceKind: 'persistent',
      profile: null,
      parentTaskId: null,
      createdAt: Date.now(),
    });
    const out = m.invoke('addComment', { taskId: 'task_nojob', body: 'start' });
    expect(out.disposition).toBe('followup_job');
    expect(out.job).toMatchObject({ taskId: 'task_nojob', status: 'queued', resumeMovement: null, askCount: 0 });
    expect(store.jobs.listForTask('task_nojob')).toHaveLength(1);
  });

  it('P1.12 while waiting_human + browser → interjection; the job is queued again in its movement', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'waiting_human', { waitReason: 'browser', resumeMovement: 'browse' });
    const out = m.invoke('addComment', { taskId: task.id, body: 'I logged in' });
    expect(out.disposition).toBe('interjection');
    expect(out.job).toMatchObject({ id: job.id, status: 'queued', waitReason: null, resumeMovement: 'browse' });
    expect(store.jobs.get(job.id)?.status).toBe('queued');
    expect(store.comments.undeliveredInterjections(job.id).map((c) => c.body)).toEqual(['I logged in']);
    expect(store.jobs.listForTask(task.id)).toHaveLength(1);
  });

  it('P1.13 while waiting_human + mcp_auth_required → interjection; the job stays parked', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'waiting_human', { waitReason: 'mcp_auth_required' });
    const before = rawJob(store, job.id);
    const out = m.invoke('addComment', { taskId: task.id, body: 'token is coming' });
    expect(out.disposition).toBe('interjection');
    expect(out.job).toMatchObject({ status: 'waiting_human', waitReason: 'mcp_auth_required' });
    expect(rawJob(store, job.id)).toEqual(before);
    expect(store.comments.undeliveredInterjections(job.id)).toHaveLength(1);
  });

  it.each([
    ['an empty body', { body: '' }],
    ['a blank body', { body: ' \n\t ' }],
    ['no body', {}],
    ['a body of the wrong type', { body: 7 }],
    ['an unknown field', { body: 'x', kind: 'answer' }],
  ])('P1.14 %s → invalid_input; nothing stored', (_name, extra) => {
    const { m, store, create } = setup();
    const { task } = create();
    const counts = rowCounts(store);
    const error = expectMaestroError(() => m.invoke('addComment', { taskId: task.id, ...extra }), 'invalid_input');
    expect(error.issues?.length).toBeGreaterThan(0);
    expect(rowCounts(store)).toEqual(counts);
  });

  it('comment events are published after the write (comment.created, and job.changed for a follow-up)', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'succeeded');
    const seen: string[] = [];
    store.subscribe((e) => seen.push(e.type));
    m.invoke('addComment', { taskId: task.id, body: 'more' });
    expect(seen.sort()).toEqual(['comment.created', 'job.changed']);
  });
});

/**
 * A second process (the "worker") holds the write lock while it finishes the job, and commits after a pause.
 * The comment posted meanwhile must wait for that commit and be judged against the state it commits against.
 */
function finishJobInAnotherProcess(file: string, jobId: string): { locked: Promise<void>; done: Promise<number> } {
  const code = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    const now = Date.now();
    const r = db.prepare("UPDATE jobs SET status = 'succeeded', result = 'done', finished_at = ?, updated_at = ? WHERE id = ? AND status = 'running'").run(now, now, ${JSON.stringify(jobId)});
    if (r.changes !== 1) process.exit(3);
    process.stdout.write('locked\\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60);
    db.exec('COMMIT');
    db.close();
  `;
  const child = spawn(process.execPath, ['-e', code], { cwd: path.resolve(__dirname, '../..'), stdio: 'pipe' });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.on('exit', (c) => reject(new Error(`child exited ${c} before locking`)));
  });
  const done = new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
  return { locked, done };
}

describe('addComment races (P1.15)', () => {
  // The other process holds SQLite's write lock on the file: a race of SQLite's (MAESTRO_TEST_DIALECT=postgres skips it).
  it.skipIf(process.env.MAESTRO_TEST_DIALECT === 'postgres')(
    'P1.15 a comment posted while another process finishes the job → judged against the committed state',
    async () => {
      const { m, store, create } = setup();
      const { task, job } = create();
      moveTo(store, job.id, 'running');
      const race = finishJobInAnotherProcess(store.db.name, job.id);
      await race.locked;
      // Blocks (busy_timeout, longer than the child holds its lock) until the other process commits `succeeded`; then
      // the gate sees a terminal job.
      const out = m.invoke('addComment', { taskId: task.id, body: 'one more thing' });
      expect(await race.done).toBe(0);
      expect(out.disposition).toBe('followup_job');
      expect(store.jobs.get(job.id)?.status).toBe('succeeded');
      expect(out.job).toMatchObject({ status: 'queued' });
      expect(out.job?.id).not.toBe(job.id);
      const comments = m.invoke('getTask', { taskId: task.id }).comments.filter((c) => c.body === 'one more thing');
      expect(comments).toEqual([out.comment]);
      expect(comments[0]?.kind).toBe('comment');
      expect(store.comments.undeliveredInterjections(job.id)).toEqual([]);
    },
  );

  it('P1.15 a comment that committed first as an interjection stays exactly one comment when the job then ends', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'running');
    const out = m.invoke('addComment', { taskId: task.id, body: 'mid-run' });
    expect(out.disposition).toBe('interjection');
    // The worker's final CAS after it; the interjection is delivered at most once.
    store.jobs.transition(job.id, 'running', 'succeeded', { result: 'r' });
    expect(store.comments.markDelivered(out.comment.id)).toBe(true);
    expect(store.comments.markDelivered(out.comment.id)).toBe(false);
    expect(m.invoke('getTask', { taskId: task.id }).comments.filter((c) => c.body === 'mid-run')).toHaveLength(1);
  });
});

describe('addComment with a profile (a follow-up on another LLM profile)', () => {
  const withOther = () => {
    const s = setup();
    s.m.invoke('saveProfile', { name: 'other', baseURL: 'http://127.0.0.1:9/v1', model: 'other-model' });
    return s;
  };

  it('P1.11 a follow-up after a terminal job runs on the profile given; without one on the task’s', () => {
    const { m, store, create } = withOther();
    const { task, job } = create();
    moveTo(store, job.id, 'succeeded');
    const out = m.invoke('addComment', { taskId: task.id, body: 'now in French', profile: 'other' });
    expect(out.disposition).toBe('followup_job');
    expect(out.job?.profile).toBe('other');
    expect(store.tasks.get(task.id)?.profile).toBe(task.profile);
    moveTo(store, out.job?.id as string, 'succeeded');
    expect(m.invoke('addComment', { taskId: task.id, body: 'and in German' }).job?.profile).toBe(task.profile);
  });

  it('P1.05 an interjection into the running job ignores the profile: the job keeps its own', () => {
    const { m, store, create } = withOther();
    const { task, job } = create();
    moveTo(store, job.id, 'running');
    const out = m.invoke('addComment', { taskId: task.id, body: 'faster', profile: 'other' });
    expect(out.disposition).toBe('interjection');
    expect(out.job).toMatchObject({ id: job.id, profile: job.profile });
    expect(store.jobs.get(job.id)?.profile).toBe(job.profile);
  });

  it('an unknown profile → 400 invalid_input naming it; nothing stored', () => {
    const { m, store, create } = withOther();
    const { task, job } = create();
    moveTo(store, job.id, 'succeeded');
    const counts = rowCounts(store);
    const error = expectMaestroError(
      () => m.invoke('addComment', { taskId: task.id, body: 'x', profile: 'no-such-profile' }),
      'invalid_input',
    );
    expect(error.message).toContain('no-such-profile');
    expect(error.issues?.[0]?.path).toEqual(['profile']);
    expect(rowCounts(store)).toEqual(counts);
  });
});
