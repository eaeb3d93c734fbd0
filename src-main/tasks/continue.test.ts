import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { rowCounts } from '../../test-support/db';
import { expectMaestroError, moveTo, setup } from '../../test-support/tasks';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';
import { DEFAULT_HANDOFF } from './continue';

describe('continueTask', () => {
  it.each([
    ['with an instruction', 'Now translate it', 'Now translate it'],
    ['without an instruction', undefined, DEFAULT_HANDOFF],
  ])(
    'P1.16 after a terminal job, %s → queued job continuing from it at the piece start, with a handoff',
    (_n, instruction, body) => {
      const { m, store, create } = setup();
      const { task, job } = create();
      moveTo(store, job.id, 'failed', { resumeMovement: 'review', askCount: 1 });
      const out = m.invoke('continueTask', { taskId: task.id, ...(instruction ? { instruction } : {}) });
      expect(out.job).toMatchObject({
        taskId: task.id,
        status: 'queued',
        continuedFromJobId: job.id,
        pieceId: task.pieceId,
        resumeMovement: null,
        parentJobId: null,
      });
      expect(store.jobs.get(out.job.id)?.pendingInvoke).toBe('UserSend');
      const comments = m.invoke('getTask', { taskId: task.id }).comments;
      expect(comments.at(-1)).toMatchObject({ kind: 'handoff', author: 'user', body, jobId: out.job.id });
      // The default handoff is written for the model: the chat words it from its notice instead (issue 23 point 6).
      expect(comments.at(-1)?.notice).toEqual(instruction ? undefined : { code: 'continued' });
      expect(m.invoke('getTask', { taskId: task.id }).task.status).toBe('queued');
    },
  );

  it.each(['succeeded', 'cancelled'] as const)('P1.16 continue also works after a %s job', (status) => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, status);
    expect(m.invoke('continueTask', { taskId: task.id }).job.continuedFromJobId).toBe(job.id);
  });

  it('P1.17 continue with another existing piece → the new job and the task use it', () => {
    const ws = tempDir();
    fs.mkdirSync(path.join(ws, '.maestro', 'pieces'), { recursive: true });
    fs.writeFileSync(
      path.join(ws, '.maestro', 'pieces', 'review.yaml'),
      'id: review\nname: Review\nmovements:\n  - name: check\n',
    );
    const { m, store, create } = setup();
    acceptWorkspaceSettings(m, ws);
    const { task, job } = create({ workspacePath: ws });
    moveTo(store, job.id, 'succeeded');
    const out = m.invoke('continueTask', { taskId: task.id, pieceId: 'review' });
    expect(out.job).toMatchObject({ pieceId: 'review', continuedFromJobId: job.id });
    expect(m.invoke('getTask', { taskId: task.id }).task.pieceId).toBe('review');
    expect(store.jobs.get(job.id)?.pieceId).toBe('default');
  });

  it.each(['queued', 'running', 'waiting_human', 'waiting_subtasks', 'retry'] as const)(
    'P1.18 while the latest job is %s → 409 job_not_terminal; nothing created',
    (status) => {
      const { m, store, create } = setup();
      const { task, job } = create();
      moveTo(store, job.id, status);
      const counts = rowCounts(store);
      expectMaestroError(() => m.invoke('continueTask', { taskId: task.id, instruction: 'x' }), 'job_not_terminal');
      expect(rowCounts(store)).toEqual(counts);
    },
  );

  it('P1.18 a task with no job → 409 job_not_terminal; nothing created', () => {
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
    const counts = rowCounts(store);
    expectMaestroError(() => m.invoke('continueTask', { taskId: 'task_nojob' }), 'job_not_terminal');
    expect(rowCounts(store)).toEqual(counts);
  });

  it('P1.19 a pieceId that does not exist → invalid_input naming pieceId; nothing created, task piece unchanged', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'succeeded');
    const counts = rowCounts(store);
    const error = expectMaestroError(
      () => m.invoke('continueTask', { taskId: task.id, pieceId: 'nope' }),
      'invalid_input',
    );
    expect(error.issues?.[0]?.path).toEqual(['pieceId']);
    expect(rowCounts(store)).toEqual(counts);
    expect(store.tasks.get(task.id)?.pieceId).toBe('default');
  });

  it('P1.19 P1.14 a blank instruction or an unknown field → invalid_input; nothing created', () => {
    const { m, store, create } = setup();
    const { task, job } = create();
    moveTo(store, job.id, 'succeeded');
    const counts = rowCounts(store);
    expectMaestroError(() => m.invoke('continueTask', { taskId: task.id, instruction: '  ' }), 'invalid_input');
    expectMaestroError(() => m.invoke('continueTask', { taskId: task.id, resume: true }), 'invalid_input');
    expect(rowCounts(store)).toEqual(counts);
  });
});
