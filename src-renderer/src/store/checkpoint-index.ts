// Where what each checkpoint of a task recorded shows in the chat: the files a tool call's run changed under that call
// (the checkpoint's `changedBy`); files changed outside the agent (the person's edits) under the Send whose checkpoint
// found them, or the call the checkpoint was taken before; a job's workspace commit on its result; the 'send'
// checkpoint each Send rewinds to (by its Invoke's seq); and which Invokes a conversation rewind folded (its
// [fromSeq, untilSeq) range, unless undone).
import type { Checkpoint, TaskRewind } from '../../../src-shared/checkpoints';

export interface CheckpointIndex {
  /** The 'send' checkpoint taken at the start of the Send whose Invoke has this seq. */
  atSend: ReadonlyMap<number, Checkpoint>;
  /** The checkpoint whose files show under the tool call with this id: the ones its run changed, else the ones
   * changed outside the agent before it. */
  underCall: ReadonlyMap<string, Checkpoint>;
  /** The short hash of the workspace commit each job made (P2.21). */
  commits: ReadonlyMap<string, string>;
  /** The rewinds in force (not undone), oldest first. */
  rewinds: readonly TaskRewind[];
}

export const EMPTY_INDEX: CheckpointIndex = {
  atSend: new Map(),
  underCall: new Map(),
  commits: new Map(),
  rewinds: [],
};

export function indexCheckpoints(checkpoints: readonly Checkpoint[], rewinds: readonly TaskRewind[]): CheckpointIndex {
  const atSend = new Map<number, Checkpoint>();
  const byCall = new Map<string, Checkpoint>();
  const beforeCall = new Map<string, Checkpoint>();
  const commits = new Map<string, string>();
  const first = <K>(map: Map<K, Checkpoint>, key: K, checkpoint: Checkpoint) => {
    if (!map.has(key)) map.set(key, checkpoint);
  };
  for (const checkpoint of checkpoints) {
    if (checkpoint.commit !== null) commits.set(checkpoint.jobId, checkpoint.commit);
    if (checkpoint.changedBy !== null) first(byCall, checkpoint.changedBy, checkpoint);
    switch (checkpoint.kind) {
      case 'send':
        // The first one taken: a Send has one; a later one with its seq would describe a retake, not the Send.
        first(atSend, checkpoint.invokeSeq, checkpoint);
        break;
      case 'step':
        // Files no step of the agent changed show before the call the checkpoint was taken before.
        if (checkpoint.changedBy === null && checkpoint.callId !== null)
          first(beforeCall, checkpoint.callId, checkpoint);
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
  // What a call changed wins over what changed outside the agent before it: one line per call.
  const underCall = new Map([...beforeCall, ...byCall]);
  return { atSend, underCall, commits, rewinds: rewinds.filter((r) => !r.undone) };
}

/** Whether what `checkpoint` recorded was changed outside the agent (the person's edits), not by a step's run. */
export const changedOutside = (checkpoint: Checkpoint): boolean => checkpoint.changedBy === null;

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
