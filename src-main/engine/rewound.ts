// Which jobs' turns a task's conversation no longer holds: a job belongs to the Invoke it started with, and a job
// whose first Invoke lies in a conversation rewind's range (not undone) is never replayed to the model again (P9.21).
import type { JobJournal } from './job-journal';

export function rewoundJobIds(journal: JobJournal): Set<string> {
  const ranges = journal.rewinds();
  if (ranges.length === 0) return new Set();
  const firstInvoke = new Map<string, number>();
  for (const invoke of journal.invokes()) {
    if (!firstInvoke.has(invoke.jobId)) firstInvoke.set(invoke.jobId, invoke.seq);
  }
  const rewound = new Set<string>();
  for (const [jobId, seq] of firstInvoke) {
    if (ranges.some((r) => seq >= r.fromSeq && seq < r.untilSeq)) rewound.add(jobId);
  }
  return rewound;
}
