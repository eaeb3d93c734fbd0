// What the Worker asks of the engine (runPiece); the engine answers with a PieceRunResult (architecture rule 5).
import type { CommentNotice, JobErrorCode, Task } from '../../src-shared/entities';
import type { ChatMessage } from '../llm/types';
import type { AnyToolDef } from '../tools/types';
import type { EngineJob } from './job-journal';
import type { PackageRequestDraft, ToolRequestDraft } from './movement-result';
import type { RouteOutcome } from './piece-router';
import type { PieceDefinition } from './pieces/catalog';

/** What a piece run ends in: the engine returns it, jobs/apply-result.ts maps it to the job's state. */
export type PieceRunResult =
  | { kind: 'completed'; result: string }
  | { kind: 'ask'; movement: string; question: string; choices?: string[] }
  | {
      kind: 'waiting_approval';
      movement: string;
      toolRequests: ToolRequestDraft[];
      packageRequests: PackageRequestDraft[];
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

/** The movement a job starts in, chosen once before it runs (pieces/schema.ts chooseStartMovement), and why not another. */
export interface StartMovement {
  name: string;
  /** A resume movement or override that named no movement of the piece (P3.07). */
  warnings: string[];
}

export interface PieceRunContext {
  job: EngineJob;
  task: Task;
  piece: PieceDefinition;
  workspacePath: string;
  /** Where the run starts: chosen when the job was prepared. */
  start: StartMovement;
  /** runs/{taskId}/ in the data dir; exists before runPiece is called. */
  runtimeDir: string;
  /** Aborted when the job is cancelled or the host shuts down. */
  signal: AbortSignal;
  /** The tools of the workspace's MCP servers, connected for this job (spec §2 K), sorted by name. */
  mcpTools?: readonly AnyToolDef[];
}

export interface Engine {
  runPiece(ctx: PieceRunContext): Promise<PieceRunResult>;
  /**
   * A Reflection job's one request (P2.08): `messages` to the job's profile, no tools; answers the reply's text.
   * Throws when the model fails (after the client's retries) or declines. Optional: without it, no Reflection runs.
   */
  reflect?(ctx: ReflectContext): Promise<string>;
  /** The LLM Router (P10.05): picks one of `pieces` for a task created without one. Optional: without it, none. */
  routePiece?(ctx: RouteContext): Promise<RouteOutcome>;
}

export interface ReflectContext {
  job: EngineJob;
  messages: readonly ChatMessage[];
  signal: AbortSignal;
}

export interface RouteContext {
  job: EngineJob;
  task: Task;
  pieces: readonly PieceDefinition[];
  signal: AbortSignal;
}
