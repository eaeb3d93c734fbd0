// The SDK's TaskStore over MAESTRO's DB: a task is read from the DB every time (task-view.ts), and nothing the SDK
// saves is kept — what it would save (the caller's messages, the states and results the watcher published) is in the
// DB already, written by MAESTRO's own operations before the SDK saw it.
import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { TaskStore } from '@a2a-js/sdk/server';
import type { Store } from '../db/store';
import { viewTask } from './task-view';

/** How many tasks of a context a listing looks through. */
const LIST_SCAN_MAX = 10_000;

export class MaestroTaskStore implements TaskStore {
  constructor(
    private readonly store: Store,
    /** Whether the caller sees a MAESTRO task: the ones it does not are neither loaded nor listed. */
    private readonly seesTask: (taskId: string) => boolean,
  ) {}

  async load(taskId: string): Promise<Task | undefined> {
    const record = this.store.a2aTasks.get(taskId);
    return record && this.seesTask(record.taskId) ? viewTask(this.store, record)?.task : undefined;
  }

  async save(): Promise<void> {}

  async list(params: ListTasksRequest): Promise<ListTasksResponse> {
    const offset = params.pageToken === '' ? 0 : Number(params.pageToken);
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new RequestMalformedError('pageToken: not a token this agent gave');
    }
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : null;
    const pageSize = params.pageSize ?? 50;
    const records = this.store.a2aTasks.list(params.contextId || null, LIST_SCAN_MAX, 0).tasks;
    const tasks = records.flatMap((record) => {
      if (!this.seesTask(record.taskId)) return [];
      const task = viewTask(this.store, record)?.task;
      if (!task?.status) return [];
      if (params.status && task.status.state !== params.status) return [];
      if (after !== null && Date.parse(task.status.timestamp ?? '') <= after) return [];
      return [params.includeArtifacts ? task : { ...task, artifacts: [] }];
    });
    const page = tasks.slice(offset, offset + pageSize);
    const next = offset + page.length;
    return { tasks: page, nextPageToken: next < tasks.length ? String(next) : '', pageSize, totalSize: tasks.length };
  }
}
