// The live event stream: connection state and the fold of each pushed event into the other slices.
import type { StateCreator } from 'zustand';
import { isTerminal } from '../../../src-shared/entities';
import type { MaestroEvent } from '../../../src-shared/events';
import type { MaestroClient } from '../api/client';
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
      switch (event.type) {
        case 'task.created':
          state.upsertTask(event.task);
          return;
        case 'job.changed':
          state.noteJob(event.job);
          state.foldJob(event.job);
          state.foldStreamJob(event.job);
          if (isTerminal(event.job.status)) void state.refreshUsage(event.taskId);
          return;
        case 'comment.created':
          state.foldComment(event.comment);
          state.foldStreamComments(event.taskId, [event.comment]);
          return;
        case 'tool_request.changed':
        case 'package_request.changed':
          // Approval cards arrive with the full task view; until then the job status shows the wait.
          return;
        case 'InvokeStart':
          void state.refreshUsage(event.taskId);
          return;
        case 'TurnEnd':
          state.foldStreamEvent(event);
          void state.refreshUsage(event.taskId);
          return;
        case 'TurnStart':
        case 'LlmCallStart':
        case 'LlmCallEnd':
        case 'movement.entered':
        case 'tool.finished':
        case 'stream.delta':
          state.foldStreamEvent(event);
          return;
        default: {
          const unknown: never = event;
          throw new Error(`unhandled event ${JSON.stringify(unknown)}`);
        }
      }
    },

    startLive() {
      return client.subscribe((event) => get().applyEvent(event), {
        onOpen: () => {
          set({ live: 'live' });
          void get().loadTasks();
          void get().refreshDetail();
          const selected = get().selectedTaskId;
          if (selected) void get().refreshUsage(selected);
        },
        onDown: () => set({ live: 'down' }),
      });
    },
  });
