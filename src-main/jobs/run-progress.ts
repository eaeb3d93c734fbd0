// What a run records as it goes, so a crash or a retry resumes where it was: its Invoke opened, the movement it is in,
// the interjections handed to the model. The engine's journal (jobs/journal.ts) writes through these.
import type { Store } from '../db/store';

/** The Invoke marker of this run is written: later runs of the job continue its Invoke range. */
export function consumeInvoke(store: Store, jobId: string): void {
  store.jobs.clearPendingInvoke(jobId);
}

/** recordMovement: the movement a running job is in (a crash or retry resumes there). */
export function recordMovement(store: Store, jobId: string, movement: string): void {
  store.jobs.setResumeMovement(jobId, movement);
}

/** markDelivered: the interjection is handed to the model; true only for the first caller (never delivered twice). */
export function markDelivered(store: Store, commentId: string): boolean {
  return store.comments.markDelivered(commentId);
}
