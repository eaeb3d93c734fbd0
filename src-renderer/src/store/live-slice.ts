// The live event stream: connection state, the fold of each pushed event into the entities, and what an event
// asks of the other slices (a toast when a job ends, the usage, checkpoints and settings changes to load again).
import type { StateCreator } from 'zustand';
import { isTerminal, type Job, type JobStatus } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import type { MaestroClient } from '../api/client';
import type { MessageKey } from '../i18n/en';
import { translate } from '../i18n/translate';
import { selectLatestJobs, selectTasks } from './entity-selectors';
import type { AppState } from './types';

export type LiveState = 'connecting' | 'live' | 'down';

export interface LiveSlice {
  live: LiveState;
  applyEvent(event: MaestroEvent): void;
  /** Subscribes to events and reloads on every (re)connect; returns the disposer. */
  startLive(): () => void;
}

export const createLiveSlice =
  (client: MaestroClient): StateCreator<AppState, [], [], LiveSlice> =>
  (set, get) => ({
    live: 'connecting',

    applyEvent(event) {
      const state = get();
      if (event.type === 'job.changed') announceEnd(state, event.job);
      state.fold({ kind: 'event', event });
      switch (event.type) {
        case 'task.deleted': {
          const selected = state.selectedTaskId;
          if (selected && event.taskIds.includes(selected)) void state.selectTask(null);
          return;
        }
        case 'job.changed':
          if (isTerminal(event.job.status)) {
            void state.refreshUsage(event.taskId);
            // The job's last changes and its workspace commit are in its checkpoints now.
            void state.refreshCheckpoints(event.taskId);
          }
          return;
        case 'comment.created':
          // The workspace commit is recorded on the job's checkpoints after the job ended.
          if (event.comment.notice?.code === 'workspace_commit') void state.refreshCheckpoints(event.taskId);
          return;
        case 'InvokeStart':
          void state.refreshUsage(event.taskId);
          // The Send's checkpoint is taken as it starts.
          void state.refreshCheckpoints(event.taskId);
          return;
        case 'TurnEnd':
          void state.refreshUsage(event.taskId);
          return;
        case 'tool.finished':
          // The step's checkpoint was taken before the call ran.
          void state.refreshCheckpoints(event.taskId);
          return;
        case 'task.routed':
          // The task now names the routed piece: the list and the open task view show it.
          void state.loadTasks();
          void state.refreshDetail();
          return;
        case 'settings.changed':
          // The open task's workspace: its card shows the change.
          if (state.entities.chat?.task?.workspacePath === event.workspacePath) {
            void state.loadSettingsChanges(event.workspacePath);
          }
          return;
        case 'lesson.changed':
          state.foldLesson(event.lesson);
          return;
        case 'task.created':
        case 'task.changed':
        case 'tool_request.changed':
        case 'package_request.changed':
        case 'TurnStart':
        case 'LlmCallStart':
        case 'LlmWait':
        case 'LlmCallEnd':
        case 'movement.entered':
        case 'tool.progress':
        case 'stream.delta':
        case 'policy.fired':
        case 'step.recorded':
        case 'step.answered':
        case 'mcp_prompt.changed':
        case 'job.metrics':
        case 'prompt.guarded':
        case 'webhook.failed':
          // Folded into the entities above, nothing else to do.
          return;
        default: {
          const unknown: never = event;
          throw new Error(`unhandled event ${JSON.stringify(unknown)}`);
        }
      }
    },

    startLive() {
      const fold = afterTask<MaestroEvent>((events) => {
        for (const event of events) {
          try {
            get().applyEvent(event);
          } catch (error) {
            // One event that cannot be folded does not keep the others of its task from the UI; it is still reported.
            queueMicrotask(() => {
              throw error;
            });
          }
        }
      });
      const stop = client.subscribe(fold.push, {
        onOpen: () => {
          set({ live: 'live' });
          void get()
            .loadTasks()
            .then(() => get().restoreSelection());
          void get().refreshDetail();
          const selected = get().selectedTaskId;
          if (selected) void get().refreshUsage(selected);
          if (selected) void get().loadActivity(selected);
        },
        onDown: () => set({ live: 'down' }),
      });
      return () => {
        stop();
        fold.close();
      };
    },
  });

/**
 * Gathers what arrives within one task and hands it over in the next one. One SSE chunk often holds several events
 * (a step, its answer, the job's end, the result), which the browser dispatches one by one in the same task: folded
 * one by one, each would render and lay out the feed on its own; folded together, they render once.
 */
function afterTask<T>(flush: (items: T[]) => void): { push(item: T): void; close(): void } {
  let queue: T[] = [];
  // A MessageChannel's message runs right after the current task; a timer would wait longer and is throttled in a
  // hidden window.
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    const items = queue;
    queue = [];
    flush(items);
  };
  return {
    push(item) {
      if (queue.push(item) === 1) channel.port2.postMessage(null);
    },
    close() {
      queue = [];
      channel.port1.close();
    },
  };
}

const END_NEWS: Partial<Record<JobStatus, { tone: 'ok' | 'error' | 'info'; key: MessageKey }>> = {
  succeeded: { tone: 'ok', key: 'toast.jobEnded.succeeded' },
  failed: { tone: 'error', key: 'toast.jobEnded.failed' },
  cancelled: { tone: 'info', key: 'toast.jobEnded.cancelled' },
};

/** A toast when a job ends while this window watches (P7.19); a change it already knew about is not news. */
function announceEnd(state: AppState, job: Job): void {
  const news = END_NEWS[job.status];
  if (!news) return;
  const known = selectLatestJobs(state)[job.taskId];
  if (known?.id === job.id && isTerminal(known.status)) return;
  // A job that a newer one took over from (an answered question ends the asking job) did not finish the task.
  if (known && known.id !== job.id && known.createdAt > job.createdAt) return;
  const knownTitle = selectTasks(state).find((t) => t.id === job.taskId)?.title;
  const title = knownTitle === undefined ? translate(state.locale, 'toast.aTask') : untrustedLine(knownTitle, 200);
  state.pushToast({ tone: news.tone, text: translate(state.locale, news.key, { title }), taskId: job.taskId });
}
