// The live event stream: connection state and the fold of each pushed event into the other slices.
import type { StateCreator } from 'zustand';
import { isTerminal, type Job, type JobStatus } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import { untrustedLine } from '../../../src-shared/untrusted-text';
import type { MaestroClient } from '../api/client';
import type { MessageKey } from '../i18n/en';
import { translate } from '../i18n/translate';
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
      state.foldActivityEvent(event);
      switch (event.type) {
        case 'task.created':
        case 'task.changed':
          state.upsertTask(event.task);
          return;
        case 'task.deleted':
          state.removeTasks(event.taskIds);
          return;
        case 'job.changed':
          announceEnd(state, event.job);
          state.noteJob(event.job);
          state.foldJob(event.job);
          state.foldStreamJob(event.job);
          if (isTerminal(event.job.status)) {
            void state.refreshUsage(event.taskId);
            // The job's last changes and its workspace commit are in its checkpoints now.
            void state.refreshCheckpoints(event.taskId);
          }
          return;
        case 'comment.created':
          state.foldComment(event.comment);
          state.foldStreamComments(event.taskId, [event.comment]);
          // The workspace commit is recorded on the job's checkpoints after the job ended.
          if (event.comment.notice?.code === 'workspace_commit') void state.refreshCheckpoints(event.taskId);
          return;
        case 'tool_request.changed':
          state.foldToolRequest(event.request);
          return;
        case 'package_request.changed':
          state.foldPackageRequest(event.request);
          return;
        case 'InvokeStart':
          void state.refreshUsage(event.taskId);
          // The Send's checkpoint is taken as it starts.
          void state.refreshCheckpoints(event.taskId);
          return;
        case 'TurnEnd':
          state.foldStreamEvent(event);
          void state.refreshUsage(event.taskId);
          return;
        case 'tool.finished':
          // The step's checkpoint was taken before the call ran.
          state.foldStreamEvent(event);
          void state.refreshCheckpoints(event.taskId);
          return;
        case 'TurnStart':
        case 'LlmCallStart':
        case 'LlmCallEnd':
        case 'movement.entered':
        case 'tool.progress':
        case 'stream.delta':
          state.foldStreamEvent(event);
          return;
        case 'policy.fired':
          // The chat marks the call it fired on (P8.07); the timeline has it too (folded above).
          state.foldStreamEvent(event);
          return;
        case 'step.recorded':
          // The step replaces its turn of the stream in the same render.
          state.foldStep(event.step);
          state.foldStreamEvent(event);
          return;
        case 'step.answered':
          state.foldStepAnswer(event.taskId, event.stepSeq, event.callId, event.result);
          return;
        case 'task.routed':
          // The task now names the routed piece: the list and the open task view show it.
          void state.loadTasks();
          void state.refreshDetail();
          return;
        case 'settings.changed':
          // The open task's workspace: its card shows the change.
          if (state.detail?.task?.workspacePath === event.workspacePath) {
            void state.loadSettingsChanges(event.workspacePath);
          }
          return;
        case 'job.metrics':
        case 'prompt.guarded':
        case 'webhook.failed':
          // Only the activity timeline shows it (folded above).
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
  const known = state.latestJobs[job.taskId];
  if (known?.id === job.id && isTerminal(known.status)) return;
  // A job that a newer one took over from (an answered question ends the asking job) did not finish the task.
  if (known && known.id !== job.id && known.createdAt > job.createdAt) return;
  const knownTitle = state.tasks.find((t) => t.id === job.taskId)?.title;
  const title = knownTitle === undefined ? translate(state.locale, 'toast.aTask') : untrustedLine(knownTitle, 200);
  state.pushToast({ tone: news.tone, text: translate(state.locale, news.key, { title }), taskId: job.taskId });
}
