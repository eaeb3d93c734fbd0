// The checkpoints slice against a fake client: the selected task's checkpoints only, a rewind's input and what the
// notice keeps (its Undo goes to the state before, in the same mode), a failed rewind leaving everything as it was,
// a revert reloading the files-changed view, and a fork opening the new task.
import { describe, expect, it } from 'vitest';
import type { Checkpoint } from '../../../src-shared/checkpoints';
import { ApiError, type MaestroApi, type MaestroClient, type OpInput, type OpOutput } from '../api/client';
import { taskFixture } from '../test-fixtures';
import { selectTasks } from './entity-selectors';
import { createAppStore } from './store';

const fakeClient = (api: Partial<MaestroApi>): MaestroClient => ({
  transport: 'http',
  api: api as MaestroApi,
  subscribe: () => () => {},
});

const sendCheckpoint = (id: string, invokeSeq: number, taskId = 't'): Checkpoint => ({
  id,
  taskId,
  jobId: 'j1',
  send: 1,
  invokeSeq,
  kind: 'send',
  createdAt: '2026-01-01T00:00:00.000Z',
  files: [{ path: 'a.txt', change: 'modified' }],
  skipped: [],
  commit: null,
  callId: null,
  changedBy: null,
});

const list = (checkpoints: Checkpoint[]): OpOutput<'listCheckpoints'> => ({
  checkpoints,
  rewinds: [],
  state: { on: true, store: 'git', note: null },
});

describe('the checkpoints slice', () => {
  it("keeps the selected task's checkpoints, indexed, and drops an answer for a task no longer selected", async () => {
    const store = createAppStore(
      fakeClient({ listCheckpoints: async ({ taskId }) => list([sendCheckpoint(`cp-${taskId}`, 3, taskId)]) }),
    );
    store.setState({ selectedTaskId: 't' });
    await store.getState().refreshCheckpoints('t');
    expect(store.getState().checkpoints?.index.atSend.get(3)?.id).toBe('cp-t');
    await store.getState().refreshCheckpoints('other');
    expect(store.getState().checkpoints?.taskId).toBe('t');
  });

  it('shows no checkpoint while the host answers "not built yet", and keeps working', async () => {
    const store = createAppStore(
      fakeClient({
        listCheckpoints: async () => {
          throw new ApiError('conflict', 'checkpoints are not built yet');
        },
      }),
    );
    store.setState({ selectedTaskId: 't' });
    await store.getState().refreshCheckpoints('t');
    expect(store.getState().checkpoints).toBeNull();
  });

  it('rewinds with the checkpoint and mode asked, keeps what it did, and undoes to the state before in that mode', async () => {
    const rewinds: OpInput<'rewindTask'>[] = [];
    let listed = 0;
    const store = createAppStore(
      fakeClient({
        listCheckpoints: async () => {
          listed++;
          return list([]);
        },
        getTaskRecent: async () => ({
          task: taskFixture({ id: 't' }),
          jobs: [],
          comments: [],
          steps: [],
          olderCount: 0,
        }),
        listToolRequests: async () => ({ requests: [] }),
        listPackageRequests: async () => ({ requests: [] }),
        rewindTask: async (input) => {
          rewinds.push(input);
          return {
            task: taskFixture({ id: 't', title: 'after' }),
            restored: ['a.txt'],
            removed: ['new.txt'],
            edited: ['a.txt'],
            undoCheckpointId: rewinds.length === 1 ? 'cp-before' : 'cp-before-undo',
          };
        },
      }),
    );
    store.setState({ selectedTaskId: 't' });
    const outcome = await store.getState().rewindTask('t', 'cp-send2', 'both', 2);
    expect(outcome).toEqual({ ok: true });
    expect(rewinds).toEqual([{ taskId: 't', checkpointId: 'cp-send2', mode: 'both' }]);
    expect(store.getState().restore).toEqual({
      taskId: 't',
      action: 'rewind',
      mode: 'both',
      send: 2,
      path: null,
      restored: ['a.txt'],
      removed: ['new.txt'],
      edited: ['a.txt'],
      undoCheckpointId: 'cp-before',
    });
    expect(selectTasks(store.getState()).find((t) => t.id === 't')?.title).toBe('after');
    expect(listed).toBeGreaterThan(0);

    await store.getState().undoRestore();
    expect(rewinds[1]).toEqual({ taskId: 't', checkpointId: 'cp-before', mode: 'both' });
    expect(store.getState().restore?.action).toBe('undo');
  });

  it('asks for a dry run before a rewind, and keeps nothing of it', async () => {
    const asked: OpInput<'rewindTask'>[] = [];
    const store = createAppStore(
      fakeClient({
        rewindTask: async (input) => {
          asked.push(input);
          const task = taskFixture({ id: 't' });
          return { task, restored: ['a.txt'], removed: [], edited: ['a.txt'], undoCheckpointId: null };
        },
      }),
    );
    store.setState({ selectedTaskId: 't' });
    const preview = await store.getState().previewRewind('t', 'cp-send2', 'files');
    expect(asked).toEqual([{ taskId: 't', checkpointId: 'cp-send2', mode: 'files', dryRun: true }]);
    expect(preview).toEqual({ ok: true, restored: ['a.txt'], removed: [], edited: ['a.txt'] });
    expect(store.getState().restore).toBeNull();
    expect(selectTasks(store.getState())).toEqual([]);
  });

  it('a refused rewind changes nothing and says why', async () => {
    const store = createAppStore(
      fakeClient({
        rewindTask: async () => {
          throw new ApiError('job_not_terminal', 'a job of the task is active');
        },
      }),
    );
    store.setState({ selectedTaskId: 't' });
    const outcome = await store.getState().rewindTask('t', 'cp', 'files', 1);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message).toBe('a job of the task is active');
    expect(store.getState().restore).toBeNull();
    expect(selectTasks(store.getState())).toEqual([]);
  });

  it('reverts one file, then loads the files-changed view again', async () => {
    const reverted: OpInput<'revertTaskFile'>[] = [];
    let changes = 0;
    const store = createAppStore(
      fakeClient({
        getTaskChanges: async () => {
          changes++;
          return { files: [], state: { on: true, store: 'plain', note: null } };
        },
        revertTaskFile: async (input) => {
          reverted.push(input);
          return { restored: ['src/a.ts'], removed: [], undoCheckpointId: 'cp-u' };
        },
      }),
    );
    store.setState({ selectedTaskId: 't' });
    await store.getState().loadTaskChanges('t');
    expect(changes).toBe(1);
    await store.getState().revertTaskFile('t', 'src/a.ts');
    expect(reverted).toEqual([{ taskId: 't', path: 'src/a.ts' }]);
    expect(store.getState().restore).toMatchObject({ action: 'revert', mode: 'files', path: 'src/a.ts' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(changes).toBe(2);
  });

  it('forks at a Send, with the instruction only when one was given, and opens the new task', async () => {
    const forks: OpInput<'forkTask'>[] = [];
    const store = createAppStore(
      fakeClient({
        forkTask: async (input) => {
          forks.push(input);
          return { task: taskFixture({ id: `fork${forks.length}`, forkedFrom: { taskId: 't', send: input.send } }) };
        },
      }),
    );
    store.setState({ selectedTaskId: 't' });
    await store.getState().forkTask('t', 2);
    await store.getState().forkTask('t', 3, 'try again');
    expect(forks).toEqual([
      { taskId: 't', send: 2 },
      { taskId: 't', send: 3, instruction: 'try again' },
    ]);
    expect(store.getState().selectedTaskId).toBe('fork2');
    expect(
      selectTasks(store.getState())
        .map((t) => t.forkedFrom?.send)
        .sort(),
    ).toEqual([2, 3]);
  });
});
