// The live generation of each task's running job (useJobStream reads it) and the movements each job entered.
// Streams are transient: a persisted result, question or error comment of the job replaces its stream (P7.16).
import type { StateCreator } from 'zustand';
import type { Comment, Job } from '../../../src-shared/entities';
import { closesStream, foldStreamEvent, foldStreamJob, type JobStream, type StreamEvent } from './job-stream';
import type { AppState } from './types';

export interface JobStreamSlice {
  /** By task id: at most one running job per task generates at a time. */
  jobStreams: Record<string, JobStream>;
  /** By job id: the movements entered, in order (persisted movement.entered events seen live). */
  movementTrails: Record<string, string[]>;
  foldStreamEvent(event: StreamEvent): void;
  foldStreamJob(job: Job): void;
  /** Drops the task's stream when `comments` hold the persisted item that replaces it. */
  foldStreamComments(taskId: string, comments: readonly Comment[]): void;
}

export const createJobStreamSlice: StateCreator<AppState, [], [], JobStreamSlice> = (set) => ({
  jobStreams: {},
  movementTrails: {},

  foldStreamEvent(event) {
    set((state) => {
      const next = foldStreamEvent(state.jobStreams[event.taskId], event);
      const jobStreams = { ...state.jobStreams, [event.taskId]: next };
      if (event.type !== 'movement.entered' || !event.jobId) return { jobStreams };
      const trail = state.movementTrails[event.jobId] ?? [];
      // A job resumed (after an approval or a retry) enters the movement it was in again: one step, not two.
      if (trail.at(-1) === event.movement) return { jobStreams };
      return { jobStreams, movementTrails: { ...state.movementTrails, [event.jobId]: [...trail, event.movement] } };
    });
  },

  foldStreamJob(job) {
    set((state) => {
      const current = state.jobStreams[job.taskId];
      const next = foldStreamJob(current, job);
      if (next === current) return {};
      return { jobStreams: withEntry(state.jobStreams, job.taskId, next) };
    });
  },

  foldStreamComments(taskId, comments) {
    set((state) => {
      const stream = state.jobStreams[taskId];
      if (!comments.some((c) => closesStream(stream, c))) return {};
      return { jobStreams: withEntry(state.jobStreams, taskId, undefined) };
    });
  },
});

function withEntry(map: Record<string, JobStream>, key: string, value: JobStream | undefined) {
  const { [key]: _dropped, ...rest } = map;
  return value ? { ...rest, [key]: value } : rest;
}
