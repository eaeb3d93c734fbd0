// Where tasks work: spaces (persistent workspace folders, renamed or pinned to a piece) and recently used folders.
import { z } from 'zod';
import { Space } from '../entities';
import { ReflectionMode } from '../lessons';
import { empty, Id, NonBlank, op } from './operation';

export const spaceOperations = {
  /** The spaces (persistent workspace folders), most recently used first. */
  listSpaces: op({
    method: 'GET',
    path: '/spaces',
    status: 200,
    input: empty,
    output: z.object({ spaces: z.array(Space) }),
  }),
  /**
   * Renames a space, pins it to a piece (null: unpinned), or says when its tasks are reflected on by themselves
   * (P2.08; null: as the app's settings say); fields left out stay as they are.
   */
  updateSpace: op({
    method: 'POST',
    path: '/spaces/:spaceId',
    status: 200,
    input: z
      .object({
        spaceId: Id,
        name: NonBlank(200).optional(),
        pinnedPieceId: Id.nullable().optional(),
        reflection: ReflectionMode.nullable().optional(),
      })
      .strict(),
    output: z.object({ space: Space }),
  }),
  /** Workspace folders of recent tasks, newest first, for the CreateTaskDialog (ephemeral workspaces left out). */
  listRecentFolders: op({
    method: 'GET',
    path: '/workspaces/recent',
    status: 200,
    input: empty,
    output: z.object({
      folders: z.array(z.object({ path: z.string(), lastUsedAt: z.string() })),
      /** Where a task goes when no folder is given (the host's --workspace); null: a scratch folder of its own. */
      defaultFolder: z.string().nullable(),
    }),
  }),
};
