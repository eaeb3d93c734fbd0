// The SDK's request handler with MAESTRO's tasks behind it. A message is admitted before the SDK sees it: written as
// MAESTRO writes any task, comment or Continue (one transaction; nothing written when it is refused), and the SDK is
// then given the A2A task it belongs to. So a refused message is a JSON-RPC error, never a task that failed:
//   no taskId, a new or no contextId → a new MAESTRO task (its job opens with Invoke PodEvent, by an agent);
//   no taskId, a context whose task has ended → a Continue of that MAESTRO task, as a new A2A task;
//   a taskId → a comment on it: the answer to its question (input-required), or an interjection while it works.
// tasks/cancel cancels the MAESTRO task's job; tasks/get reads the DB (task-store.ts).
import { randomUUID } from 'node:crypto';
import {
  type AgentCard,
  type CancelTaskRequest,
  type Message,
  type SendMessageRequest,
  type StreamResponse,
  type Task,
  TaskState,
} from '@a2a-js/sdk';
import {
  A2AError,
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { DefaultRequestHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import type { OpInput, OpOutput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import type { A2aTaskRecord } from '../db/repos/a2a-tasks';
import { storageFault } from '../db/storage-fault';
import type { Store } from '../db/store';
import { JobWatcher } from './job-watcher';
import { messageContent, metadataString } from './message-parts';
import { MaestroTaskStore } from './task-store';
import { isFinal, stateName, viewTask } from './task-view';

/** What the A2A side needs of MAESTRO: its DB and the operations every caller uses, inputs checked the same way. */
export interface A2aHost {
  store: Store;
  version: string;
  /** Whether the caller sees the MAESTRO task (a caller's token sees only its spaces' tasks); others do not exist. */
  seesTask(taskId: string): boolean;
  /** A task another agent starts (POST /tasks/run's way): Invoke PodEvent, the instruction by an agent. */
  createTask(input: OpInput<'createTask'>): OpOutput<'createTask'>;
  addComment(input: OpInput<'addComment'>): OpOutput<'addComment'>;
  continueTask(input: OpInput<'continueTask'>): OpOutput<'continueTask'>;
  cancelTask(input: OpInput<'cancelTask'>): OpOutput<'cancelTask'>;
  listPieces(): OpOutput<'listPieces'>;
}

const stateWord = (task: Task) => stateName(task.status?.state);

/**
 * MAESTRO's refusals as the protocol's errors; a storage fault says to try again; anything else is the app's own, an
 * internal error without its message (as the bridge answers it).
 */
export function toA2aError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  const fault = storageFault(error);
  if (fault) return new A2AError(`${fault.message}; nothing was written, try again in a few seconds`);
  if (!(error instanceof MaestroError)) {
    console.error('A2A request failed:', error);
    return new A2AError('internal error');
  }
  switch (error.code) {
    case 'invalid_input':
      return new RequestMalformedError(error.message);
    case 'not_found':
      return new TaskNotFoundError(error.message);
    default:
      return new UnsupportedOperationError(error.message);
  }
}

function translated<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw toA2aError(error);
  }
}

export class MaestroRequestHandler extends DefaultRequestHandler {
  readonly watcher: JobWatcher;

  constructor(
    private readonly host: A2aHost,
    private readonly card: () => AgentCard,
  ) {
    const watcher = new JobWatcher(host.store, (taskId) => host.cancelTask({ taskId }));
    super(
      card(),
      new MaestroTaskStore(host.store, (taskId) => host.seesTask(taskId)),
      watcher,
      undefined,
      undefined,
      undefined,
      async () => card(),
    );
    this.watcher = watcher;
  }

  override async getAgentCard(): Promise<AgentCard> {
    return this.card();
  }

  override async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    return super.sendMessage(this.admit(params), context);
  }

  override async *sendMessageStream(
    params: SendMessageRequest,
    context: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    const admitted = this.admit(params);
    yield* super.sendMessageStream(admitted, context);
  }

  override async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const { record, task } = this.existing(params.id);
    if (task.status?.state === TaskState.TASK_STATE_CANCELED) return task;
    if (isFinal(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) {
      throw new TaskNotCancelableError(`task ${record.id} has already ${stateWord(task)}`);
    }
    translated(() => this.host.cancelTask({ taskId: record.taskId }));
    const after = this.existing(record.id).task;
    if (after.status?.state !== TaskState.TASK_STATE_CANCELED) {
      throw new TaskNotCancelableError(`task ${record.id} ended as ${stateWord(after)} before it could be cancelled`);
    }
    return after;
  }

  private existing(id: string): { record: A2aTaskRecord; task: Task } {
    if (!id?.trim()) throw new RequestMalformedError('the task id must not be empty');
    const found = this.host.store.a2aTasks.get(id);
    const record = found && this.host.seesTask(found.taskId) ? found : undefined;
    const task = record && viewTask(this.host.store, record)?.task;
    if (!record || !task) throw new TaskNotFoundError(`Task not found: ${id}`);
    return { record, task };
  }

  /** Writes what the message asks for and answers the request as the SDK must see it: naming its A2A task. */
  private admit(params: SendMessageRequest): SendMessageRequest {
    const message = params.message;
    if (!message) throw new RequestMalformedError('request.message is required');
    if (!message.messageId) throw new RequestMalformedError('message.messageId is required');
    const content = messageContent(message);
    const pieceId = metadataString(message, 'pieceId');
    const { store } = this.host;
    const record = translated(() =>
      store.transact(() => {
        if (message.taskId) return this.answer(message, content.text, content.attachments.length, pieceId);
        const previous = message.contextId ? store.a2aTasks.latestInContext(message.contextId) : undefined;
        if (previous) return this.continueContext(previous, message, content.text, content.attachments.length, pieceId);
        return this.start(message, content, pieceId);
      }),
    );
    return { ...params, message: { ...message, taskId: record.id, contextId: record.contextId } };
  }

  /** A message to a task: a comment on its MAESTRO task (the answer when it asked). */
  private answer(message: Message, text: string, files: number, pieceId: string | undefined): A2aTaskRecord {
    const { record, task } = this.existing(message.taskId);
    if (message.contextId && message.contextId !== record.contextId) {
      throw new RequestMalformedError(
        `contextId ${message.contextId} is not the context of task ${record.id} (${record.contextId})`,
      );
    }
    if (isFinal(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) {
      throw new UnsupportedOperationError(
        `task ${record.id} has ${stateWord(task)} and takes no more messages; send the message with contextId ` +
          `${record.contextId} and no taskId to go on in a new task`,
      );
    }
    if (files > 0) throw new RequestMalformedError('message.parts: only a message that starts a task may carry files');
    if (pieceId) throw new RequestMalformedError('message.metadata.pieceId: only a new task chooses its piece');
    const { comment } = this.host.addComment({ taskId: record.taskId, body: text });
    this.host.store.a2aTasks.recordMessage(comment.id, message.messageId);
    return record;
  }

  /** A message to a context whose last task has ended: the MAESTRO task continues, in a new A2A task. */
  private continueContext(
    previous: A2aTaskRecord,
    message: Message,
    text: string,
    files: number,
    pieceId: string | undefined,
  ): A2aTaskRecord {
    const last = this.existing(previous.id).task;
    if (!isFinal(last.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) {
      throw new UnsupportedOperationError(
        `task ${previous.id} of context ${previous.contextId} is ${stateWord(last)}; send the message with taskId ` +
          `${previous.id}, or wait until it has ended`,
      );
    }
    if (files > 0) throw new RequestMalformedError('message.parts: a message that continues a task cannot carry files');
    const { job } = this.host.continueTask({
      taskId: previous.taskId,
      instruction: text,
      ...(pieceId ? { pieceId } : {}),
    });
    return this.record(
      message,
      { contextId: previous.contextId, taskId: previous.taskId, firstJobId: job.id },
      'handoff',
    );
  }

  /** A message that opens a context (given by the caller, or MAESTRO's task id): a new MAESTRO task. */
  private start(
    message: Message,
    content: ReturnType<typeof messageContent>,
    pieceId: string | undefined,
  ): A2aTaskRecord {
    const { task, job } = this.host.createTask({
      instruction: content.text,
      ...(pieceId ? { pieceId } : {}),
      ...(content.attachments.length > 0 ? { attachments: content.attachments } : {}),
    });
    return this.record(
      message,
      { contextId: message.contextId || task.id, taskId: task.id, firstJobId: job.id },
      'instruction',
    );
  }

  private record(
    message: Message,
    task: Omit<A2aTaskRecord, 'id' | 'createdAt'>,
    kind: 'instruction' | 'handoff',
  ): A2aTaskRecord {
    const { store } = this.host;
    const record = store.a2aTasks.insert({ id: randomUUID(), ...task });
    const comment = store.comments.listForJob(task.firstJobId).find((c) => c.kind === kind);
    if (comment) store.a2aTasks.recordMessage(comment.id, message.messageId);
    return record;
  }
}
