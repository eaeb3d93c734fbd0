// The live event stream: connection state and the fold of each pushed event into the other slices.
import type { StateCreator } from 'zustand';
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
          return;
        case 'comment.created':
          state.foldComment(event.comment);
          return;
        case 'tool_request.changed':
        case 'package_request.changed':
          // Approval cards arrive with the full task view; until then the job status shows the wait.
          return;
        case 'InvokeStart':
        case 'TurnStart':
        case 'TurnEnd':
        case 'LlmCallStart':
        case 'LlmCallEnd':
        case 'movement.entered':
        case 'tool.finished':
        case 'stream.delta':
          // The run's progress (useJobStream, ActivityTimeline) is rendered by a later issue.
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
        },
        onDown: () => set({ live: 'down' }),
      });
    },
  });
