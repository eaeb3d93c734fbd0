// What a piece run ends in (architecture rule 5): the engine returns it, apply-result.ts maps it to the job's state.
import type { CommentNotice, JobErrorCode } from '../../src-shared/entities';
import type { NewPackageRequest } from '../db/repos/package-requests';
import type { NewToolRequest } from '../db/repos/tool-requests';

export type PieceRunResult =
  | { kind: 'completed'; result: string }
  | { kind: 'ask'; movement: string; question: string; choices?: string[] }
  | {
      kind: 'waiting_approval';
      movement: string;
      toolRequests: NewToolRequest[];
      packageRequests: NewPackageRequest[];
    }
  | {
      kind: 'waiting_human';
      reason: 'browser' | 'mcp_auth_required' | 'settings';
      /** Where the job resumes; null: at its piece's start (it parked before it began, on its folder's settings). */
      movement: string | null;
      message: string;
      /** The message's words as a code, for the UI (absent: the UI shows the message). */
      notice?: CommentNotice;
    }
  | { kind: 'waiting_subtasks'; movement: string }
  | { kind: 'cancelled'; reason: string }
  | {
      kind: 'error';
      message: string;
      /** Network, 5xx after LlmCall retries, crash: worth another attempt. Fatal errors are not. */
      retryable: boolean;
      /** Movement to resume in on retry. */
      movement?: string;
      /**
       * Set when the model server could not be reached: how long it has been unreachable so far. The job waits the
       * outage out (its wait grows with it) without using up an attempt.
       */
      outageMs?: number;
      /** What kind of failure it is, where the UI can point at the fix: stored as the job's errorCode. */
      code?: JobErrorCode;
    };
