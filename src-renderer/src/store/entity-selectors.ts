// Views over the entities for components and actions: each computed once per change of what it reads (zustand
// compares a selector's answer by identity, so an unchanged view must be the same object).
import type { ChatStep, Comment, Job, Task } from '../../../src-shared/entities';
import type { ActivityEvent } from './activity';
import type { Entities } from './entities';
import type { AppState, LoadState } from './types';

/** The selected task with its jobs and the chat loaded, as the task view shows it. */
export interface TaskDetail {
  taskId: string;
  /** Null until the first getTaskRecent answer; events that arrive earlier still land in jobs and comments. */
  task: Task | null;
  jobs: readonly Job[];
  /** The comments loaded: the task's latest ones, oldest first, without a gap (with the steps, see chat-items.ts). */
  comments: readonly Comment[];
  /** The steps loaded (the agent's recorded turns with their tool calls), oldest first, in the same range. */
  steps: readonly ChatStep[];
  /** How many of the task's comments and steps are older than the first item loaded. */
  olderCount: number;
  /** The page of earlier comments: being loaded, or failed (then the feed offers to load it again). */
  olderLoad: 'idle' | 'loading' | 'error';
}

export interface TaskActivityView {
  taskId: string;
  events: readonly ActivityEvent[];
  load: LoadState;
  error: string | null;
}

const NO_JOBS: readonly Job[] = [];

/** The last answer of `compute`, kept while every input is the same object as last time. */
function memo<A extends readonly unknown[], R>(compute: (...inputs: A) => R): (...inputs: A) => R {
  let last: { inputs: A; result: R } | null = null;
  return (...inputs) => {
    if (last && last.inputs.length === inputs.length && last.inputs.every((x, i) => x === inputs[i])) {
      return last.result;
    }
    const result = compute(...inputs);
    last = { inputs, result };
    return result;
  };
}

/** A task's status is its latest job's when that job is known (the list may predate the job's last change). */
function withStatus(task: Task, jobs: readonly Job[] | undefined): Task {
  const status = jobs?.at(-1)?.status;
  return status === undefined || status === task.status ? task : { ...task, status };
}

const tasksView = memo((tasks: Entities['tasks'], jobs: Entities['jobs']): readonly Task[] =>
  tasks.map((t) => withStatus(t, jobs[t.id])),
);

/** The task list, newest first. */
export const selectTasks = (s: Pick<AppState, 'entities'>): readonly Task[] =>
  tasksView(s.entities.tasks, s.entities.jobs);

const latestJobsView = memo((jobs: Entities['jobs']): Readonly<Record<string, Job>> => {
  const latest: Record<string, Job> = {};
  for (const [taskId, list] of Object.entries(jobs)) {
    const job = list.at(-1);
    if (job) latest[taskId] = job;
  }
  return latest;
});

/** The newest job known of each task, by task id. */
export const selectLatestJobs = (s: Pick<AppState, 'entities'>): Readonly<Record<string, Job>> =>
  latestJobsView(s.entities.jobs);

const detailView = memo(
  (
    chat: Entities['chat'],
    jobs: readonly Job[] | undefined,
    listed: Task | undefined,
    olderLoad: TaskDetail['olderLoad'],
  ): TaskDetail | null => {
    if (!chat) return null;
    const task = chat.task && withStatus(listed ?? chat.task, jobs);
    const { taskId, comments, steps, olderCount } = chat;
    return { taskId, task, jobs: jobs ?? NO_JOBS, comments, steps, olderCount, olderLoad };
  },
);

/** The selected task's view: null when none is selected. */
export const selectDetail = (s: Pick<AppState, 'entities' | 'olderLoad'>): TaskDetail | null => {
  const { chat, jobs, tasks } = s.entities;
  const listed = chat?.task ? tasks.find((t) => t.id === chat.taskId) : undefined;
  return detailView(chat, chat ? jobs[chat.taskId] : undefined, listed, s.olderLoad);
};

/** The jobs of the task the view shows, oldest first (none when another task or none is open). */
export const selectJobsOf = (s: Pick<AppState, 'entities'>, taskId: string): readonly Job[] =>
  s.entities.chat?.taskId === taskId ? (s.entities.jobs[taskId] ?? NO_JOBS) : NO_JOBS;

const activityView = memo((activity: Entities['activity'], load: AppState['activityLoad']): TaskActivityView | null =>
  activity && load?.taskId === activity.taskId ? { ...activity, load: load.load, error: load.error } : null,
);

/** The open timeline's events with their load state. */
export const selectActivity = (s: Pick<AppState, 'entities' | 'activityLoad'>): TaskActivityView | null =>
  activityView(s.entities.activity, s.activityLoad);

/** The selected task's view when it is `taskId`'s. */
export const selectDetailOf = (s: Pick<AppState, 'entities' | 'olderLoad'>, taskId: string): TaskDetail | null => {
  const detail = selectDetail(s);
  return detail?.taskId === taskId ? detail : null;
};
