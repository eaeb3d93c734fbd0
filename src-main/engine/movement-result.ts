// How a movement ends (architecture rule 5): the piece runner maps each to the next movement or a PieceRunResult.
import type { JobErrorCode } from '../../src-shared/entities';
import type { BrowserStep, ToolOutcome } from '../tools/types';

type Wait = Extract<ToolOutcome, { kind: 'wait' }>;
/** A call that waits for a person: what the tool asked for, and the call it answers. */
export type ToolRequestDraft = NonNullable<Wait['toolRequest']> & { callId: string };
export type PackageRequestDraft = NonNullable<Wait['packageRequest']> & { callId: string };

export type MovementResult =
  /** `output`: what the movement ended with (the reply's text and the transition's reason), for the next one. */
  | { kind: 'next'; movement: string; output: string }
  | { kind: 'complete'; message: string }
  /** `choices`: the quick replies the question offers (none for a question asked in text). */
  | { kind: 'ask'; question: string; choices?: string[] }
  | { kind: 'wait_approval'; toolRequests: ToolRequestDraft[]; packageRequests: PackageRequestDraft[] }
  | { kind: 'wait_subtasks' }
  | { kind: 'wait_browser'; step: BrowserStep }
  /** An MCP server refused the credentials of call `callId` (which did not run): the job parks until new ones. */
  | { kind: 'wait_mcp_auth'; server: string; message: string; callId: string }
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
