// Where each checkpoint of a task shows in the chat: a 'send' checkpoint under its Send's header (by its Invoke's
// seq), a 'step' checkpoint under the tool call it was taken before (by the call's id), a job's workspace commit on
// its result; and which Invokes a conversation rewind folded (its [fromSeq, untilSeq) range, unless undone).
import type { Checkpoint, TaskRewind } from '../../../src-shared/checkpoints';

export interface CheckpointIndex {
  /** The 'send' checkpoint taken at the start of the Send whose Invoke has this seq. */
  atSend: ReadonlyMap<number, Checkpoint>;
  /** The 'step' checkpoint taken before the tool call with this id. */
  beforeCall: ReadonlyMap<string, Checkpoint>;
  /** The short hash of the workspace commit each job made (P2.21). */
  commits: ReadonlyMap<string, string>;
  /** The rewinds in force (not undone), oldest first. */
  rewinds: readonly TaskRewind[];
}

export const EMPTY_INDEX: CheckpointIndex = {
  atSend: new Map(),
  beforeCall: new Map(),
  commits: new Map(),
  rewinds: [],
};

export function indexCheckpoints(checkpoints: readonly Checkpoint[], rewinds: readonly TaskRewind[]): CheckpointIndex {
  const atSend = new Map<number, Checkpoint>();
  const beforeCall = new Map<string, Checkpoint>();
  const commits = new Map<string, string>();
  for (const checkpoint of checkpoints) {
    if (checkpoint.commit !== null) commits.set(checkpoint.jobId, checkpoint.commit);
    switch (checkpoint.kind) {
      case 'send':
        // The first one taken: a Send has one, and a later one with its seq would describe a retake, not the Send.
        if (!atSend.has(checkpoint.invokeSeq)) atSend.set(checkpoint.invokeSeq, checkpoint);
        break;
      case 'step':
        if (checkpoint.callId !== null && !beforeCall.has(checkpoint.callId))
          beforeCall.set(checkpoint.callId, checkpoint);
        break;
      case 'rewind':
        // The state before a rewind: reached through the rewind's "Undo", not shown in the chat.
        break;
      default: {
        const unknown: never = checkpoint.kind;
        throw new Error(`unknown checkpoint kind ${String(unknown)}`);
      }
    }
  }
  return { atSend, beforeCall, commits, rewinds: rewinds.filter((r) => !r.undone) };
}

/** The rewind in force that folded the Invoke with this seq, or null. */
export function rewoundBy(index: CheckpointIndex, seq: number): TaskRewind | null {
  return index.rewinds.find((r) => seq >= r.fromSeq && seq < r.untilSeq) ?? null;
}

/** The selected task's index; empty while its checkpoints are not loaded (or are another task's). */
export function selectCheckpointIndex(state: {
  selectedTaskId: string | null;
  checkpoints: { taskId: string; index: CheckpointIndex } | null;
}): CheckpointIndex {
  const loaded = state.checkpoints;
  return loaded && loaded.taskId === state.selectedTaskId ? loaded.index : EMPTY_INDEX;
}
