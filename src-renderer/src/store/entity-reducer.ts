// The one fold of the renderer's entities (entities.ts): pages, action answers and live events in, the next entities
// out. Pure: no API, no toast, no timer (the slices do those), so the same inputs always give the same state.
import { assertNever } from '../../../src-shared/assert-never';
import type { McpPrompt } from '../../../src-shared/contract';
import type { Comment, Job, PackageRequest, Task, ToolRequest } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import { appendActivity, mergeActivity } from './activity';
import { decidedWins, firstItem, foldLatestPage, newerJob, withAnswers } from './chat-fold';
import type { Entities, EntityInput, TaskChat, TaskRequests } from './entities';
import { closesStream, foldStreamEvent, foldStreamJob, type StreamEvent } from './job-stream';
import { mergeById, newestFirst, upsertById } from './merge';

export function reduceEntities(state: Entities, input: EntityInput): Entities {
  switch (input.kind) {
    case 'tasks.page':
      return { ...state, tasks: foldFirstPage(state.tasks, input.tasks, input.last ?? true) };
    case 'tasks.more':
      return { ...state, tasks: mergeById(state.tasks, input.tasks).sort(newestFirst) };
    case 'task':
      return upsertTask(state, input.task);
    case 'tasks.removed':
      return removeTasks(state, input.taskIds);
    case 'job':
      return foldJob(state, input.job);
    case 'comment':
      return foldComments(state, input.comment.taskId, [input.comment]);
    case 'chat.open': {
      const { taskId } = input;
      return {
        ...state,
        chat: taskId ? { taskId, task: null, comments: [], steps: [], olderCount: 0 } : null,
        requests: taskId ? { taskId, tool: [], package: [], mcp: [] } : null,
      };
    }
    case 'chat.latest': {
      const { taskId, page } = input;
      const jobs = page.jobs.filter((j) => j.taskId === taskId);
      const merged = { ...state.jobs, [taskId]: mergeById(state.jobs[taskId] ?? [], jobs, newerJob) };
      const next = closeStream({ ...state, jobs: merged }, taskId, page.comments);
      return withChat(next, taskId, (chat) => ({
        task: page.task,
        ...foldLatestPage(chat, page),
      }));
    }
    case 'chat.older': {
      const { page } = input;
      return withChat(state, input.taskId, (chat) =>
        // A latest page that replaced the items meanwhile (see foldLatestPage) makes this page a stale one.
        firstItem(chat)?.id === input.beforeId
          ? {
              comments: mergeById(page.comments, chat.comments),
              steps: mergeById(page.steps, chat.steps),
              olderCount: page.olderCount,
            }
          : {},
      );
    }
    case 'requests.page':
      return withRequests(foldAsking(state, input.taskId, input.mcp), input.taskId, (current) => ({
        tool: mergeById(current.tool, input.tool, decidedWins),
        package: mergeById(current.package, input.package, decidedWins),
        // The list is what is open now: a question that closed since is not in it.
        mcp: input.mcp ?? current.mcp,
      }));
    case 'mcp_prompt':
      return foldMcpPrompt(state, input.prompt, input.open);
    case 'tool_request':
      return foldToolRequest(state, input.request);
    case 'package_request':
      return foldPackageRequest(state, input.request);
    case 'activity.open':
      return state.activity?.taskId === input.taskId
        ? state
        : { ...state, activity: { taskId: input.taskId, events: [] } };
    case 'activity.page': {
      const { activity } = state;
      if (activity?.taskId !== input.taskId) return state;
      return { ...state, activity: { ...activity, events: mergeActivity(activity.events, input.events) } };
    }
    case 'event':
      return foldEvent(foldActivity(state, input.event), input.event);
    default:
      return assertNever(input);
  }
}

function foldEvent(state: Entities, event: MaestroEvent): Entities {
  switch (event.type) {
    case 'task.created':
    case 'task.changed':
      return upsertTask(state, event.task);
    case 'task.deleted':
      return removeTasks(state, event.taskIds);
    case 'job.changed':
      return foldJob(state, event.job);
    case 'comment.created':
      return foldComments(state, event.taskId, [event.comment]);
    case 'tool_request.changed':
      return foldToolRequest(state, event.request);
    case 'package_request.changed':
      return foldPackageRequest(state, event.request);
    case 'step.recorded': {
      const { step } = event;
      // The step replaces its turn of the stream in the same render.
      const next = withChat(state, step.taskId, (chat) => {
        // An answer already folded (a page read after it) is kept: the event carries the step without answers.
        const known = chat.steps.find((s) => s.id === step.id);
        return { steps: upsertById(chat.steps, known ? withAnswers(step, known) : step) };
      });
      return foldStream(next, event);
    }
    case 'step.answered':
      return withChat(state, event.taskId, (chat) => {
        const at = chat.steps.findIndex((s) => s.seq === event.stepSeq);
        const step = chat.steps[at];
        if (!step) return {};
        const toolCalls = step.toolCalls.map((c) => (c.id === event.callId ? { ...c, result: event.result } : c));
        return { steps: chat.steps.map((s, i) => (i === at ? { ...step, toolCalls } : s)) };
      });
    case 'TurnStart':
    case 'TurnEnd':
    case 'LlmCallStart':
    case 'LlmWait':
    case 'LlmCallEnd':
    case 'movement.entered':
    case 'tool.finished':
    case 'tool.progress':
    case 'policy.fired':
    case 'stream.delta':
      return foldStream(state, event);
    case 'mcp_prompt.changed':
      return foldMcpPrompt(state, event.prompt, event.open);
    case 'InvokeStart':
    case 'task.routed':
    case 'settings.changed':
    case 'job.metrics':
    case 'prompt.guarded':
    case 'webhook.failed':
    case 'lesson.changed':
      // No entity of theirs: the timeline has them (folded above); the slices reload what they change.
      return state;
    default:
      return assertNever(event);
  }
}

/** The first page as it is now, with the tasks older than its span kept as they were loaded. */
function foldFirstPage(known: readonly Task[], page: readonly Task[], last: boolean): Task[] {
  const oldest = page.reduce<string | null>((min, t) => (min === null || t.createdAt < min ? t.createdAt : min), null);
  // Strictly older only: a task of the oldest one's millisecond may be on the next page.
  const older = last || oldest === null ? [] : known.filter((t) => t.createdAt < oldest);
  return mergeById(older, page).sort(newestFirst);
}

function upsertTask(state: Entities, task: Task): Entities {
  return { ...state, tasks: [task, ...state.tasks.filter((t) => t.id !== task.id)].sort(newestFirst) };
}

function removeTasks(state: Entities, taskIds: readonly string[]): Entities {
  const gone = new Set(taskIds);
  return {
    ...state,
    tasks: state.tasks.filter((t) => !gone.has(t.id)),
    jobs: Object.fromEntries(Object.entries(state.jobs).filter(([id]) => !gone.has(id))),
  };
}

function foldJob(state: Entities, job: Job): Entities {
  // A Reflection job is in the task's Activity (folded there from its events), never the task's latest job.
  if (job.kind === 'reflection') return state;
  const known = state.jobs[job.taskId] ?? [];
  // An HTTP answer (the job a comment started) can arrive after the events of that job's run.
  const same = known.find((j) => j.id === job.id);
  const jobs = { ...state.jobs, [job.taskId]: upsertById(known, same ? newerJob(same, job) : job) };
  // A cancelled job's stream stops at once, not only when its event arrives (P7.22).
  const stream = state.streams[job.taskId];
  const folded = foldStreamJob(stream, job);
  return { ...state, jobs, streams: folded === stream ? state.streams : withEntry(state.streams, job.taskId, folded) };
}

function foldComments(state: Entities, taskId: string, comments: readonly Comment[]): Entities {
  if (comments.length === 0) return state;
  let chat = state.chat;
  if (chat?.taskId === taskId) {
    let list = chat.comments;
    for (const comment of comments) list = upsertById(list, comment);
    chat = { ...chat, comments: list };
  }
  return closeStream({ ...state, chat }, taskId, comments);
}

/** Drops the task's stream when `comments` hold the persisted item that replaces it. */
function closeStream(state: Entities, taskId: string, comments: readonly Comment[]): Entities {
  const stream = state.streams[taskId];
  if (!comments.some((c) => closesStream(stream, c))) return state;
  return { ...state, streams: withEntry(state.streams, taskId, undefined) };
}

function foldStream(state: Entities, event: StreamEvent): Entities {
  const streams = { ...state.streams, [event.taskId]: foldStreamEvent(state.streams[event.taskId], event) };
  if (event.type !== 'movement.entered' || !event.jobId) return { ...state, streams };
  const trail = state.movementTrails[event.jobId] ?? [];
  // A job resumed (after an approval or a retry) enters the movement it was in again: one step, not two.
  if (trail.at(-1) === event.movement) return { ...state, streams };
  return { ...state, streams, movementTrails: { ...state.movementTrails, [event.jobId]: [...trail, event.movement] } };
}

function foldActivity(state: Entities, event: MaestroEvent): Entities {
  const { activity } = state;
  if (activity?.taskId !== event.taskId) return state;
  const events = appendActivity(activity.events, event);
  return events === activity.events ? state : { ...state, activity: { ...activity, events } };
}

function foldToolRequest(state: Entities, request: ToolRequest): Entities {
  return withRequests(state, request.taskId, (current) => {
    const known = current.tool.find((r) => r.id === request.id);
    return { tool: upsertById(current.tool, known ? decidedWins(known, request) : request) };
  });
}

function foldPackageRequest(state: Entities, request: PackageRequest): Entities {
  return withRequests(state, request.taskId, (current) => {
    const known = current.package.find((r) => r.id === request.id);
    return { package: upsertById(current.package, known ? decidedWins(known, request) : request) };
  });
}

function withChat(state: Entities, taskId: string, change: (chat: TaskChat) => Partial<TaskChat>): Entities {
  const { chat } = state;
  if (chat?.taskId !== taskId) return state;
  const patch = change(chat);
  return Object.keys(patch).length === 0 ? state : { ...state, chat: { ...chat, ...patch } };
}

/** The open task's questions as listed: whether it asks now (a reload has no events of questions opened before). */
function foldAsking(state: Entities, taskId: string, prompts: readonly McpPrompt[] | undefined): Entities {
  if (!prompts) return state;
  const ids = prompts.map((p) => p.id);
  return { ...state, asking: withEntry(state.asking, taskId, ids.length > 0 ? ids : undefined) };
}

/** An MCP server's question opened (its card shows) or closed (answered here or elsewhere, timed out, its job ended). */
function foldMcpPrompt(state: Entities, prompt: McpPrompt, open: boolean): Entities {
  const ids = (state.asking[prompt.taskId] ?? []).filter((id) => id !== prompt.id);
  const asking = withEntry(state.asking, prompt.taskId, open ? [...ids, prompt.id] : ids.length > 0 ? ids : undefined);
  return withRequests({ ...state, asking }, prompt.taskId, (requests) => {
    const others = requests.mcp.filter((p) => p.id !== prompt.id);
    return { mcp: open ? [...others, prompt] : others };
  });
}

function withRequests(
  state: Entities,
  taskId: string,
  change: (requests: TaskRequests) => Partial<TaskRequests>,
): Entities {
  const { requests } = state;
  return requests?.taskId === taskId ? { ...state, requests: { ...requests, ...change(requests) } } : state;
}

function withEntry<V>(map: Readonly<Record<string, V>>, key: string, value: V | undefined): Record<string, V> {
  const { [key]: _dropped, ...rest } = map;
  return value ? { ...rest, [key]: value } : rest;
}
