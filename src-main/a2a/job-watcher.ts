// The SDK's AgentExecutor for MAESTRO: the work is the Worker's (the request handler queued it), so executing an A2A
// task is watching it. From the event bus (job.changed of its MAESTRO task) it publishes the task, then a
// status-update whenever its state changes and the result as an artifact-update, until the task has ended or asks a
// question (answered by the caller's next message). A person's approval or an MCP token resolves in MAESTRO, so the
// watch goes on through those waits.
import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import type { Store } from '../db/store';
import { type A2aTaskView, isFinal, viewTask } from './task-view';

const QUIET = [TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING];

export class JobWatcher implements AgentExecutor {
  /** The watch of each A2A task now watched, by its id: a second request on the task joins it. */
  private readonly watches = new Map<string, { done: Promise<void>; stop: () => void }>();

  constructor(
    private readonly store: Store,
    private readonly cancel: (taskId: string) => void,
  ) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const id = request.taskId;
    const first = this.view(id);
    if (!first) return;
    // Every request's stream opens with the task as it is now.
    bus.publish(AgentEvent.task(first.task));
    const state = first.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (!QUIET.includes(state)) this.publishStatus(bus, first);
    const running = this.watches.get(id);
    if (running) return running.done;
    if (isFinal(state) || asks(first)) return;
    return this.watch(id, bus, first);
  }

  /** tasks/cancel is answered by the request handler itself; an SDK path that gets here cancels the same way. */
  async cancelTask(taskId: string): Promise<void> {
    const record = this.store.a2aTasks.get(taskId);
    if (record) this.cancel(record.taskId);
  }

  /** Ends every watch (the host is stopping): their requests settle with the state they last reported. */
  stopAll(): void {
    for (const watch of [...this.watches.values()]) watch.stop();
  }

  private view(id: string): A2aTaskView | undefined {
    const record = this.store.a2aTasks.get(id);
    return record && viewTask(this.store, record);
  }

  private watch(id: string, bus: ExecutionEventBus, first: A2aTaskView): Promise<void> {
    const maestroTaskId = first.task.metadata?.maestroTaskId as string;
    let last = stateKey(first);
    let stop = () => {};
    const done = new Promise<void>((resolve) => {
      stop = () => {
        unsubscribe();
        this.watches.delete(id);
        resolve();
      };
    });
    const unsubscribe = this.store.subscribe((event) => {
      if (event.type !== 'job.changed' || event.taskId !== maestroTaskId) return;
      const now = this.view(id);
      if (!now) return stop();
      const key = stateKey(now);
      if (key === last) return;
      last = key;
      const result = now.task.artifacts[0];
      if (result) bus.publish(AgentEvent.artifactUpdate(artifactEvent(now, result)));
      this.publishStatus(bus, now);
      const state = now.task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
      if (isFinal(state) || asks(now)) stop();
    });
    this.watches.set(id, { done, stop });
    return done;
  }

  private publishStatus(bus: ExecutionEventBus, view: A2aTaskView): void {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId: view.task.id,
        contextId: view.task.contextId,
        status: view.task.status,
        metadata: { maestroJobId: view.job.id },
      }),
    );
  }
}

/** A question for the caller: only its next message goes on. */
const asks = (view: A2aTaskView) => view.job.status === 'waiting_human' && view.job.waitReason === 'ask';

const stateKey = (view: A2aTaskView) => `${view.job.id} ${view.job.status} ${view.job.waitReason}`;

const artifactEvent = (view: A2aTaskView, artifact: A2aTaskView['task']['artifacts'][number]) => ({
  taskId: view.task.id,
  contextId: view.task.contextId,
  artifact,
  append: false,
  lastChunk: true,
  metadata: undefined,
});
