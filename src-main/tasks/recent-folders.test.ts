// The recent workspace folders the CreateTaskDialog offers: distinct, newest use first, persistent folders only
// (not MAESTRO's ephemeral scratch folders, not subtasks, not folders removed since), at most RECENT_FOLDERS_LIMIT.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertChildJob, setup } from '../../test-support/tasks';
import { tempDir } from '../../test-support/temp-maestro';
import { RECENT_FOLDERS_LIMIT } from './recent-folders';

const folder = (root: string, name: string) => {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  return fs.realpathSync(dir);
};

describe('listRecentFolders', () => {
  it('P10.07 lists each picked folder once, newest use first, without ephemeral workspaces', () => {
    const { m, create } = setup();
    const root = tempDir();
    const a = folder(root, 'a');
    const b = folder(root, 'b');
    create({ workspacePath: a });
    create({ workspacePath: b });
    create({}); // no folder and no default: an ephemeral workspace
    const latestA = create({ workspacePath: a });

    const { folders } = m.invoke('listRecentFolders', {});
    expect(folders.map((f) => f.path)).toEqual([a, b]);
    expect(folders[0]?.lastUsedAt).toBe(latestA.task.createdAt);
  });

  it('includes the --workspace default folder that tasks without one ran in', () => {
    const root = tempDir();
    const fallback = folder(root, 'default');
    const { m, create } = setup({ defaultWorkspace: fallback });
    create({});
    expect(m.invoke('listRecentFolders', {}).folders.map((f) => f.path)).toEqual([fallback]);
  });

  it('names the default folder, so the composer can say where a task goes when none is picked (null: none)', () => {
    const root = tempDir();
    const fallback = folder(root, 'default');
    expect(setup({ defaultWorkspace: fallback }).m.invoke('listRecentFolders', {}).defaultFolder).toBe(
      fs.realpathSync(fallback),
    );
    expect(setup({}).m.invoke('listRecentFolders', {}).defaultFolder).toBeNull();
  });

  it('leaves out folders that no longer exist and subtasks, and stops at the limit', () => {
    const { m, store, create } = setup();
    const root = tempDir();
    const gone = folder(root, 'gone');
    const parent = create({ workspacePath: gone });
    fs.rmSync(gone, { recursive: true });
    // A subtask row in a folder of its own would otherwise be listed.
    insertChildJob(store, parent.task.id, parent.job.id);
    const many = Array.from({ length: RECENT_FOLDERS_LIMIT + 2 }, (_, i) => folder(root, `f${i}`));
    for (const dir of many) create({ workspacePath: dir });

    const listed = m.invoke('listRecentFolders', {}).folders.map((f) => f.path);
    expect(listed).toEqual([...many].reverse().slice(0, RECENT_FOLDERS_LIMIT));
    expect(listed).not.toContain(gone);
    expect(listed).not.toContain('/tmp');
  });

  it('rejects input it does not take', () => {
    const { m } = setup();
    expect(() => m.invoke('listRecentFolders', { limit: 3 })).toThrow(/invalid input/);
  });
});
