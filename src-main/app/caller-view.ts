// What one caller of the bridge sees (P1.20, P10.08): the tasks of its spaces, and no other. A task of a space it does
// not see is one that does not exist for it; a task it would make must land in one of its spaces.
import fs from 'node:fs';
import path from 'node:path';
import type { Caller, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import type { Store } from '../db/store';

export const hiddenTask = (taskId: string) => new MaestroError('not_found', `task ${taskId} does not exist`);

export class CallerView {
  private readonly spaces: ReadonlySet<string> | 'all';

  constructor(
    private readonly store: Store,
    readonly caller: Caller,
    /** The host's --workspace: where a task given no folder goes. */
    private readonly defaultWorkspace: string | null,
  ) {
    this.spaces = caller.spaces === 'all' ? 'all' : new Set(caller.spaces);
  }

  /** A space null is an ephemeral workspace's: only a caller of every space sees those. */
  seesSpace(spaceId: string | null): boolean {
    return this.spaces === 'all' || (spaceId !== null && this.spaces.has(spaceId));
  }

  /** A task that does not exist is "seen" by a caller of every space, so the operation answers its own 404. */
  seesTask(taskId: string): boolean {
    return this.spaces === 'all' || this.seesSpace(this.store.tasks.spaceId(taskId));
  }

  /** Throws the 404 of a task that does not exist unless the caller sees it. */
  requireTask(taskId: string): void {
    if (!this.seesTask(taskId)) throw hiddenTask(taskId);
  }

  /**
   * POST /tasks and /tasks/run: the space the task would work in (given by id, or the space of the folder given or of
   * the host's default) must be one the caller sees; anything else is 404, as if there were no such space, and nothing
   * about the folder (whether it exists) is told.
   */
  requirePlacement(input: OpParsedInput<'createTask'>): void {
    if (this.spaces === 'all') return;
    const refused = () => new MaestroError('not_found', 'no space of this caller holds the task’s workspace');
    if (input.spaceId) {
      if (!this.seesSpace(input.spaceId)) throw refused();
      if (input.workspacePath === undefined) return;
    }
    const given = input.workspacePath ?? this.defaultWorkspace;
    if (!given || !this.seesFolder(given)) throw refused();
  }

  /** Whether the host's default folder (--workspace) is in a space the caller sees; false when there is none. */
  seesDefaultFolder(): boolean {
    return this.defaultWorkspace !== null && this.seesFolder(this.defaultWorkspace);
  }

  /** Whether the folder (an absolute path, its links resolved) is the folder of a space the caller sees. */
  seesFolder(given: string): boolean {
    if (this.spaces === 'all') return true;
    if (!path.isAbsolute(given)) return false;
    let folder: string;
    try {
      folder = fs.realpathSync(given);
    } catch {
      return false;
    }
    return this.seesSpace(this.store.spaces.byFolder(folder)?.id ?? null);
  }
}
