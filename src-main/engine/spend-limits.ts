// What a job may spend on subtasks and delegation (issue 21): each limit from the Workspace Tool Policy, else the
// piece, else the default — with where its value came from, so a limit reached says how to change it.
import type { LimitsFile } from '../tools/policy-schema';
import type { PieceDefinition } from './pieces/schema';

/** A task's subtasks may have subtasks of their own, three levels in all, and the whole tree at most 20 subtasks. */
export const SUBTASK_DEFAULTS = { maxDepth: 3, maxCount: 20 } as const;

export interface SpendLimit {
  value: number;
  /** The field that set it, as its file spells it, and the file (or "the default"). */
  field: string;
  from: string;
}

export interface SpendLimits {
  subtaskDepth: SpendLimit;
  subtaskCount: SpendLimit;
  delegateDepth: SpendLimit;
}

/** `policy`: the policy file's `limits` (absent: none), `policyFile` its path for the messages. */
export function spendLimits(piece: PieceDefinition, policy: LimitsFile | undefined, policyFile: string): SpendLimits {
  const pick = (field: string, fromPolicy: number | undefined, fromPiece: number | undefined, fallback: number) => {
    if (fromPolicy !== undefined) return { value: fromPolicy, field: `limits.${field}`, from: policyFile };
    if (fromPiece !== undefined) return { value: fromPiece, field, from: `piece "${piece.id}" (${piece.file})` };
    return { value: fallback, field, from: 'the default' };
  };
  return {
    subtaskDepth: pick(
      'subtasks.max_depth',
      policy?.subtasks?.max_depth,
      piece.subtasks?.maxDepth,
      SUBTASK_DEFAULTS.maxDepth,
    ),
    subtaskCount: pick(
      'subtasks.max_count',
      policy?.subtasks?.max_count,
      piece.subtasks?.maxCount,
      SUBTASK_DEFAULTS.maxCount,
    ),
    delegateDepth: pick('delegate.max_depth', policy?.delegate?.max_depth, piece.delegate.maxDepth, 1),
  };
}

/**
 * The tool's answer when a limit is reached: what was refused, which limit with its value and where it was set, and
 * how a person changes it (the model cannot: `.maestro/` is not the agent's to write).
 */
export function limitReached(what: string, limit: SpendLimit, policyFile: string): string {
  const set = limit.from === 'the default' ? 'the default' : `set by ${limit.from}`;
  return `limit reached: ${what} (${limit.field} = ${limit.value}, ${set}). Nothing was created; do the rest of the work yourself. A person can change it with "limits" in ${policyFile} (e.g. {"limits": {"subtasks": {"max_count": 40}}}) or in the piece's file.`;
}
