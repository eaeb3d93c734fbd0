// Repository of spaces: a named persistent workspace folder reused across tasks, optionally pinned to one piece
// (a grounded space, P10.04). Ephemeral workspaces have no space.

import type { ReflectionMode } from '../../../src-shared/lessons';
import { iso, isoOrNull, newId } from '../ids';
import type { SqlDatabase } from '../sql';

export interface SpaceRecord {
  id: string;
  name: string;
  folder: string;
  pinnedPieceId: string | null;
  /** When its tasks are reflected on by themselves (P2.08); absent: as the app's settings say. */
  reflection?: ReflectionMode;
  createdAt: string;
  taskCount: number;
  /** When its newest task was created; null before its first task. */
  lastUsedAt: string | null;
}

interface SpaceRow {
  id: string;
  name: string;
  folder: string;
  pinned_piece_id: string | null;
  reflection: ReflectionMode | null;
  created_at: number;
  task_count: number;
  last_used_at: number | null;
}

const rowToSpace = (r: SpaceRow): SpaceRecord => ({
  id: r.id,
  name: r.name,
  folder: r.folder,
  pinnedPieceId: r.pinned_piece_id,
  // Only when set: a space reads as it did before the column existed.
  ...(r.reflection ? { reflection: r.reflection } : {}),
  createdAt: iso(r.created_at),
  taskCount: r.task_count,
  lastUsedAt: isoOrNull(r.last_used_at),
});

const SELECT = `SELECT s.*, count(t.id) AS task_count, max(t.created_at) AS last_used_at
  FROM spaces s LEFT JOIN tasks t ON t.space_id = s.id`;

export function createSpacesRepo(db: SqlDatabase) {
  const insert = db.prepare(
    'INSERT INTO spaces (id, name, folder, pinned_piece_id, created_at) VALUES (@id, @name, @folder, NULL, @createdAt)',
  );
  const byId = db.prepare<[string], SpaceRow>(`${SELECT} WHERE s.id = ? GROUP BY s.id`);
  const byFolder = db.prepare<[string], SpaceRow>(`${SELECT} WHERE s.folder = ? GROUP BY s.id`);
  // Most recently used first; spaces never used sort by creation among themselves, after the used ones.
  const all = db.prepare<[], SpaceRow>(
    `${SELECT} GROUP BY s.id
     ORDER BY max(t.created_at) IS NULL, max(t.created_at) DESC, s.created_at DESC, s.rowid DESC`,
  );
  const folders = db.prepare<[], string>('SELECT folder FROM spaces ORDER BY folder').pluck();
  const update = db.prepare<{ id: string; name: string; pinnedPieceId: string | null; reflection: string | null }>(
    'UPDATE spaces SET name = @name, pinned_piece_id = @pinnedPieceId, reflection = @reflection WHERE id = @id',
  );

  const repo = {
    get(id: string): SpaceRecord | undefined {
      const row = byId.get(id);
      return row && rowToSpace(row);
    },
    byFolder(folder: string): SpaceRecord | undefined {
      const row = byFolder.get(folder);
      return row && rowToSpace(row);
    },
    /** Every space's folder: cheaper than list() when only they are wanted. */
    folders(): string[] {
      return folders.all();
    },
    list(): SpaceRecord[] {
      return all.all().map(rowToSpace);
    },
    /** The space of a folder, made (named after the folder's last segment) when it has none yet. */
    forFolder(folder: string, name: string, now = Date.now()): SpaceRecord {
      const existing = repo.byFolder(folder);
      if (existing) return existing;
      insert.run({ id: newId('spc'), name, folder, createdAt: now });
      return repo.byFolder(folder) as SpaceRecord;
    },
    update(
      id: string,
      change: { name: string; pinnedPieceId: string | null; reflection?: ReflectionMode | null },
    ): void {
      update.run({ id, ...change, reflection: change.reflection ?? null });
    },
  };
  return repo;
}
export type SpacesRepo = ReturnType<typeof createSpacesRepo>;
