// Issue 22, housekeeping: a task keeps checkpoints up to Settings' count and age — the oldest steps go first, then the
// oldest Sends, never the task's first — their refs go with them, and a deleted task's refs and index go too. Real:
// a SQLite file, a plain folder's private git repository.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointSettings } from '../../src-shared/checkpoints';
import { insertJob, insertTask, tempStore } from '../../test-support/db';
import { tempDir } from '../../test-support/temp-maestro';
import { openSnapshotStore } from './git-store';
import { CheckpointService } from './service';
import type { SnapshotStore } from './types';

async function setUp(settings: Partial<CheckpointSettings>) {
  const store = tempStore();
  const dataDir = tempDir();
  const workspace = tempDir('maestro-plain-');
  const taskId = insertTask(store);
  store.db.prepare('UPDATE tasks SET workspace_path = ? WHERE id = ?').run(workspace, taskId);
  const task = store.tasks.get(taskId);
  const job = insertJob(store, taskId);
  if (!task) throw new Error('no task');
  const service = new CheckpointService({
    store,
    dataDir,
    settings: () => CheckpointSettings.parse(settings),
    open: openSnapshotStore,
  });
  const opened = await service.open(task);
  if (opened.kind !== 'store') throw new Error(opened.note);
  return { store, service, task, job, workspace, dataDir, snapshots: opened.store as SnapshotStore };
}

describe('checkpoint housekeeping (issue 22)', () => {
  it('keepPerTask: beyond it the oldest go — steps before Sends, never the first — and their refs with them', async () => {
    const { store, service, task, job, workspace, snapshots } = await setUp({ keepPerTask: 10 });
    const kinds: ('send' | 'rewind')[] = ['send', 'rewind', 'send', 'rewind', 'rewind', 'rewind', 'send'];
    for (let i = 0; i < 13; i++) {
      fs.writeFileSync(path.join(workspace, `f${i}.txt`), String(i));
      await service.record(snapshots, task, job.id, kinds[i % kinds.length] ?? 'rewind');
    }
    const before = store.checkpoints.listForTask(task.id);
    expect(before).toHaveLength(13);
    // Step checkpoints are the first to go: two of the oldest rows become steps.
    store.db.prepare("UPDATE checkpoints SET kind = 'step' WHERE id IN (?, ?)").run(before[5]?.id, before[9]?.id);

    expect(await service.prune(task.id, snapshots)).toBe(3);
    const kept = store.checkpoints.listForTask(task.id).map((c) => c.id);
    expect(kept).toHaveLength(10);
    expect(kept[0]).toBe(before[0]?.id);
    expect(kept).not.toContain(before[5]?.id);
    expect(kept).not.toContain(before[9]?.id);
    expect(kept).not.toContain(before[1]?.id);
    const refs = (await snapshots.listRefs(`tasks/${task.id}`)).map((r) => r.ref);
    expect(refs.sort()).toEqual(kept.map((id) => `refs/maestro/tasks/${task.id}/${id}`).sort());
  });

  it('keepDays: older checkpoints go, the task’s first stays; a deleted task takes its refs and its index along', async () => {
    const { store, service, task, job, workspace, dataDir, snapshots } = await setUp({ keepDays: 1 });
    for (let i = 0; i < 3; i++) {
      fs.writeFileSync(path.join(workspace, 'a.txt'), String(i));
      await service.record(snapshots, task, job.id, 'send');
    }
    expect(await service.prune(task.id, snapshots, Date.now() + 2 * 24 * 3600 * 1000)).toBe(2);
    expect(store.checkpoints.listForTask(task.id)).toHaveLength(1);
    expect(fs.existsSync(path.join(dataDir, 'checkpoints', 'index', task.id))).toBe(true);

    await service.forget([{ task, refs: service.refsOf(task.id) }]);
    expect(await snapshots.listRefs(`tasks/${task.id}`)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, 'checkpoints', 'index', task.id))).toBe(false);
  });
});
