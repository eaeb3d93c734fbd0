// Spaces: a task's folder resolved to the space that holds it (P10.07), pinned pieces (P10.04), spaces listed and
// updated through the operations, and the migration that makes spaces of the folders earlier tasks used.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectMaestroError, setup } from '../../test-support/tasks';
import { tempDir } from '../../test-support/temp-maestro';

function folder(name: string): string {
  const dir = path.join(tempDir(), name);
  fs.mkdirSync(dir);
  return dir;
}

describe('spaces', () => {
  it('P10.07 a folder given → a new persistent space named after it; the same folder again → the same space', () => {
    const { m, store, create } = setup();
    const dir = folder('my-project');
    const first = create({ workspacePath: dir });
    const second = create({ workspacePath: `${dir}${path.sep}.` });
    const { spaces } = m.invoke('listSpaces', {});
    expect(spaces).toEqual([
      expect.objectContaining({ name: 'my-project', folder: fs.realpathSync(dir), pinnedPieceId: null, taskCount: 2 }),
    ]);
    expect(store.tasks.spaceId(first.task.id)).toBe(spaces[0]?.id);
    expect(store.tasks.spaceId(second.task.id)).toBe(spaces[0]?.id);
    expect(spaces[0]?.lastUsedAt).toBe(second.task.createdAt);
  });

  it('P10.07 P2.09 no folder at all → an ephemeral workspace under the data dir and no space', () => {
    const dataDir = tempDir();
    const { m, store, create } = setup({ dataDir });
    const { task } = create();
    expect(task.workspacePath).toBe(path.join(dataDir, 'workspaces', task.id));
    expect(fs.statSync(task.workspacePath).isDirectory()).toBe(true);
    expect(store.tasks.workspaceKind(task.id)).toBe('ephemeral');
    expect(store.tasks.spaceId(task.id)).toBeNull();
    expect(m.invoke('listSpaces', {}).spaces).toEqual([]);
  });

  it("P10.07 a space given by id → the task works in the space's folder; a different folder too → 400", () => {
    const { m, create } = setup();
    const dir = folder('alpha');
    create({ workspacePath: dir });
    const space = m.invoke('listSpaces', {}).spaces[0];
    if (!space) throw new Error('no space');
    const { task } = create({ spaceId: space.id });
    expect(task.workspacePath).toBe(space.folder);

    const before = m.invoke('listTasks', {}).tasks.length;
    const err = expectMaestroError(() => create({ spaceId: space.id, workspacePath: folder('beta') }), 'invalid_input');
    expect(err.message).toMatch(/^workspacePath: differs from the folder of space alpha/);
    expectMaestroError(() => create({ spaceId: 'spc_nope' }), 'invalid_input');
    expect(m.invoke('listTasks', {}).tasks).toHaveLength(before);
    expect(m.invoke('listSpaces', {}).spaces).toHaveLength(1);
  });

  it('a refused task makes no space', () => {
    const { m, create } = setup();
    expectMaestroError(() => create({ workspacePath: folder('gamma'), pieceId: 'no-such-piece' }), 'invalid_input');
    expect(m.invoke('listSpaces', {}).spaces).toEqual([]);
  });

  it('P10.03 P10.04 a pinned space runs its piece when none is given; another piece is refused; unpinning frees it', () => {
    const { m, create } = setup();
    const dir = folder('grounded');
    create({ workspacePath: dir });
    const id = m.invoke('listSpaces', {}).spaces[0]?.id as string;

    const pinned = m.invoke('updateSpace', { spaceId: id, pinnedPieceId: 'plan-implement-review', name: 'Grounded' });
    expect(pinned.space).toMatchObject({ name: 'Grounded', pinnedPieceId: 'plan-implement-review' });
    expect(create({ workspacePath: dir }).task.pieceId).toBe('plan-implement-review');
    expect(create({ spaceId: id, pieceId: 'plan-implement-review' }).task.pieceId).toBe('plan-implement-review');
    const err = expectMaestroError(() => create({ workspacePath: dir, pieceId: 'default' }), 'invalid_input');
    expect(err.message).toMatch(/pinned to piece plan-implement-review/);

    m.invoke('updateSpace', { spaceId: id, pinnedPieceId: null });
    expect(create({ workspacePath: dir, pieceId: 'default' }).task.pieceId).toBe('default');
    expect(create({ workspacePath: dir }).task.pieceId).toBe('default');
    // P10.03 in an unpinned space a piece given is the piece used.
    expect(create({ workspacePath: dir, pieceId: 'ask-first' }).task.pieceId).toBe('ask-first');
  });

  it('updateSpace: an unknown space → 404, an unknown piece → 400, a blank or NUL name → 400; nothing changes', () => {
    const { m, create } = setup();
    create({ workspacePath: folder('delta') });
    const space = m.invoke('listSpaces', {}).spaces[0];
    if (!space) throw new Error('no space');
    expectMaestroError(() => m.invoke('updateSpace', { spaceId: 'spc_nope', name: 'x' }), 'not_found');
    const err = expectMaestroError(
      () => m.invoke('updateSpace', { spaceId: space.id, pinnedPieceId: 'nope' }),
      'invalid_input',
    );
    expect(err.message).toMatch(/^pinnedPieceId: no piece named nope/);
    expectMaestroError(() => m.invoke('updateSpace', { spaceId: space.id, name: '  ' }), 'invalid_input');
    const nul = expectMaestroError(
      () => m.invoke('updateSpace', { spaceId: space.id, name: '\u0000' }),
      'invalid_input',
    );
    expect(nul.issues?.[0]).toMatchObject({ path: ['name'], message: 'must not contain a NUL character' });
    expect(m.invoke('listSpaces', {}).spaces).toEqual([space]);
  });

  it('a subtask works in the space of its parent', async () => {
    const { m, store, create } = setup();
    const { task } = create({ workspacePath: folder('epsilon') });
    const { insertTaskWithJob } = await import('../jobs/lifecycle');
    const child = insertTaskWithJob(store, {
      id: 'task_child',
      title: 'child',
      instruction: 'child',
      pieceId: 'default',
      workspacePath: task.workspacePath,
      workspaceKind: 'persistent',
      spaceId: store.tasks.spaceId(task.id),
      profile: null,
      parentTaskId: task.id,
      parentJobId: null,
      invoke: 'PodEvent',
      author: 'agent',
    });
    expect(store.tasks.spaceId(child.task.id)).toBe(m.invoke('listSpaces', {}).spaces[0]?.id);
  });
});
