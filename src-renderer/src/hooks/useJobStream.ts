// useJobStream: the live generation of a task's latest job and the movements that job entered. The stream is null
// when nothing is generating or its result has been persisted.
//
// Two views of it, so that a streamed delta re-renders only what shows the text: useJobStream gives the generation's
// state (LLM state, attempt, movement), which changes a few times per AgentTurn, for the task's header and its
// progress; useJobStreamTurns gives the whole stream (text, reasoning, tool calls per AgentTurn), for the feed.
import { useShallow } from 'zustand/react/shallow';
import { selectDetailOf } from '../store/entity-selectors';
import type { JobStream } from '../store/job-stream';
import { type AppState, useAppStore } from '../store/store';

/** What the generation is doing, without its content. */
export type JobStreamState = Pick<JobStream, 'jobId' | 'llm' | 'attempt' | 'movement'>;

export interface UseJobStream {
  stream: JobStreamState | null;
  /** Movements the latest job entered, oldest first; the last is the current one. */
  movements: readonly string[];
}

const NO_MOVEMENTS: readonly string[] = [];

/** The id of the task's latest job while it is the selected task; null before its detail loaded. */
const latestJobId = (s: AppState, taskId: string) => selectDetailOf(s, taskId)?.jobs.at(-1)?.id ?? null;

/** The stream, when it belongs to the latest job (a stream of an older job is not shown). */
function current<S extends { jobId: string }>(stream: S | undefined, jobId: string | null): S | null {
  return stream && (jobId === null || stream.jobId === jobId) ? stream : null;
}

export function useJobStream(taskId: string): UseJobStream {
  const jobId = useAppStore((s) => latestJobId(s, taskId));
  const state = useAppStore(
    useShallow((s): JobStreamState | null => {
      const stream = s.entities.streams[taskId];
      return stream
        ? { jobId: stream.jobId, llm: stream.llm, attempt: stream.attempt, movement: stream.movement }
        : null;
    }),
  );
  const movements = useAppStore((s) => (jobId ? s.entities.movementTrails[jobId] : undefined) ?? NO_MOVEMENTS);
  return { stream: current(state ?? undefined, jobId), movements };
}

/** The whole live generation of the task's latest job: re-renders on every streamed delta. */
export function useJobStreamTurns(taskId: string): JobStream | null {
  const jobId = useAppStore((s) => latestJobId(s, taskId));
  return current(
    useAppStore((s) => s.entities.streams[taskId]),
    jobId,
  );
}
