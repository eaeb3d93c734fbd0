// The renderer's one copy of task, job, chat, request and activity state, and what folds into it: the pages the API
// answers (on load and paging), the records an action's answer carries, and the live events. entity-reducer.ts folds.
import type { McpPrompt } from '../../../src-shared/contract';
import type { ChatStep, Comment, Job, PackageRequest, Task, ToolRequest } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import type { ActivityEvent } from './activity';
import type { JobStream } from './job-stream';

/** The open task's chat: its latest comments and steps, oldest first, without a gap (see chat-fold.ts). */
export interface TaskChat {
  taskId: string;
  /** The task as its latest page had it (the list's copy wins when the list has it); null until that page. */
  task: Task | null;
  comments: readonly Comment[];
  steps: readonly ChatStep[];
  /** How many of the task's comments and steps are older than the first item loaded. */
  olderCount: number;
}

export interface TaskRequests {
  taskId: string;
  tool: readonly ToolRequest[];
  package: readonly PackageRequest[];
  /** What the task's MCP servers ask the person now (open questions only: one that closed is gone). */
  mcp: readonly McpPrompt[];
}

export interface TaskActivity {
  taskId: string;
  events: readonly ActivityEvent[];
}

export interface Entities {
  /** The task list, newest first, as its pages listed it and as events changed it (the pages loaded so far). */
  tasks: readonly Task[];
  /** Every job known, by task id, oldest first: all of the open task's, the latest seen of the others. */
  jobs: Readonly<Record<string, readonly Job[]>>;
  /** One task's chat at a time (the selected one). */
  chat: TaskChat | null;
  /** The selected task's tool and package requests. */
  requests: TaskRequests | null;
  /** One task's activity events (the open timeline's). */
  activity: TaskActivity | null;
  /** The live generation of each task's running job (transient: a persisted comment replaces it, P7.16). */
  streams: Readonly<Record<string, JobStream>>;
  /** By job id: the movements entered, in order. */
  movementTrails: Readonly<Record<string, readonly string[]>>;
  /**
   * By task id: the MCP questions open in it (their ids), from the live events and the open task's list: its job runs,
   * but the task waits for the person (the notification center counts it).
   */
  asking: Readonly<Record<string, readonly string[]>>;
}

export const NO_ENTITIES: Entities = {
  tasks: [],
  jobs: {},
  chat: null,
  requests: null,
  activity: null,
  streams: {},
  movementTrails: {},
  asking: {},
};

/** What folds into the entities: a page, an action's answer, or a pushed event. */
export type EntityInput =
  /**
   * listTasks' first page: it replaces the tasks of its span (from its oldest task up; all of them when it is the last
   * page), so one deleted meanwhile goes, and the older pages loaded before stay.
   */
  | { kind: 'tasks.page'; tasks: readonly Task[]; last?: boolean }
  /** Another page of listTasks (the next one, a search's, the tasks waiting for the person): added to the list. */
  | { kind: 'tasks.more'; tasks: readonly Task[] }
  /** A task an action answered with (created, renamed, archived). */
  | { kind: 'task'; task: Task }
  /** deleteTask's answer. */
  | { kind: 'tasks.removed'; taskIds: readonly string[] }
  /** A job an action answered with (the one a comment started, a cancel, a continue). */
  | { kind: 'job'; job: Job }
  /** The comment addComment answered with. */
  | { kind: 'comment'; comment: Comment }
  /** A task selected (null: none): its chat and requests start empty, the others' are dropped. */
  | { kind: 'chat.open'; taskId: string | null }
  /** getTaskRecent. */
  | {
      kind: 'chat.latest';
      taskId: string;
      page: {
        task: Task;
        jobs: readonly Job[];
        comments: readonly Comment[];
        steps: readonly ChatStep[];
        olderCount: number;
      };
    }
  /** listChatBefore the item `beforeId` (stale when the first item loaded is no longer that one). */
  | {
      kind: 'chat.older';
      taskId: string;
      beforeId: string;
      page: { comments: readonly Comment[]; steps: readonly ChatStep[]; olderCount: number };
    }
  /** listToolRequests and listPackageRequests. */
  | {
      kind: 'requests.page';
      taskId: string;
      tool: readonly ToolRequest[];
      package: readonly PackageRequest[];
      mcp?: readonly McpPrompt[];
    }
  /** An MCP server's question that answerMcpPrompt closed. */
  | { kind: 'mcp_prompt'; prompt: McpPrompt; open: boolean }
  /** A request a decision answered with. */
  | { kind: 'tool_request'; request: ToolRequest }
  | { kind: 'package_request'; request: PackageRequest }
  /** A timeline opened on a task: the events of the task it showed before go. */
  | { kind: 'activity.open'; taskId: string }
  /** listTaskEvents. */
  | { kind: 'activity.page'; taskId: string; events: readonly MaestroEvent[] }
  | { kind: 'event'; event: MaestroEvent };
