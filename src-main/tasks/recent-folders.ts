// GET /workspaces/recent: the folders the user ran tasks in, newest first, for the new-task composer's folder chip —
// the spaces that have tasks, most recently used first — and the default folder, so the chip can name it. Ephemeral workspaces have no space (they are MAESTRO's own
// scratch folders, not a choice the user made); a folder that no longer exists is left out.
import fs from 'node:fs';
import type { OpOutput } from '../../src-shared/contract';
import type { TaskContext } from './context';

export const RECENT_FOLDERS_LIMIT = 10;

export function listRecentFolders(ctx: TaskContext): OpOutput<'listRecentFolders'> {
  const folders: OpOutput<'listRecentFolders'>['folders'] = [];
  for (const space of ctx.store.spaces.list()) {
    if (folders.length >= RECENT_FOLDERS_LIMIT || space.lastUsedAt === null) break;
    if (isFolder(space.folder)) folders.push({ path: space.folder, lastUsedAt: space.lastUsedAt });
  }
  return { folders, defaultFolder: ctx.defaultWorkspace };
}

function isFolder(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
