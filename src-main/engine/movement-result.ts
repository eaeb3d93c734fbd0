// How a movement ends (architecture rule 5): the piece runner maps each to the next movement or a PieceRunResult.
import type { JobErrorCode } from '../../src-shared/entities';
import type { NewPackageRequest } from '../db/repos/package-requests';
import type { NewToolRequest } from '../db/repos/tool-requests';
import type { BrowserStep } from '../tools/types';

export type MovementResult =
  /** `output`: what the movement ended with (the reply's text and the transition's reason), for the next one. */
  | { kind: 'next'; movement: string; output: string }
  | { kind: 'complete'; message: string }
  /** `choices`: the quick replies the question offers (none for a question asked in text). */
  | { kind: 'ask'; question: string; choices?: string[] }
  | { kind: 'wait_approval'; toolRequests: NewToolRequest[]; packageRequests: NewPackageRequest[] }
  | { kind: 'wait_subtasks' }
  | { kind: 'wait_browser'; step: BrowserStep }
  | { kind: 'cancelled'; reason: string }
  /** `outageMs`: the model server has been unreachable this long; the job waits it out (issue 12). */
  | {
      kind: 'error';
      message: string;
      retryable: boolean;
      outageMs?: number;
      /** What kind of failure it is, where the UI can point at the fix (the job's errorCode). */
      code?: JobErrorCode;
    };
