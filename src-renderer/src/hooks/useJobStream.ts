// useJobStream: the live generation of a task's latest job (streamed text, reasoning, tool calls, LLM state) and
// the movements that job entered. The stream is null when nothing is generating or its result has been persisted.
import type { JobStream } from '../store/job-stream';
import { useAppStore } from '../store/store';

export interface UseJobStream {
  stream: JobStream | null;
  /** Movements the latest job entered, oldest first; the last is the current one. */
  movements: readonly string[];
}

const NO_MOVEMENTS: readonly string[] = [];

export function useJobStream(taskId: string): UseJobStream {
  const jobId = useAppStore((s) => (s.detail?.taskId === taskId ? (s.detail.jobs.at(-1)?.id ?? null) : null));
  const stream = useAppStore((s) => s.jobStreams[taskId] ?? null);
  const movements = useAppStore((s) => (jobId ? s.movementTrails[jobId] : undefined) ?? NO_MOVEMENTS);
  return { stream: stream && (jobId === null || stream.jobId === jobId) ? stream : null, movements };
}
