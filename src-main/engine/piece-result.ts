// What the Worker asks of the engine (runPiece); the engine answers with a PieceRunResult (architecture rule 5).
import type { Task } from '../../src-shared/entities';
import type { JobRecord } from '../db/repos/jobs';
import type { PieceRunResult } from '../jobs/piece-run-result';
import type { AnyToolDef } from '../tools/types';
import type { RouteOutcome } from './piece-router';
import type { PieceDefinition } from './pieces/catalog';

export interface PieceRunContext {
  job: JobRecord;
  task: Task;
  piece: PieceDefinition;
  workspacePath: string;
  /** runs/{taskId}/ in the data dir; exists before runPiece is called. */
  runtimeDir: string;
  /** Aborted when the job is cancelled or the host shuts down. */
  signal: AbortSignal;
  /** The tools of the workspace's MCP servers, connected for this job (spec §2 K), sorted by name. */
  mcpTools?: readonly AnyToolDef[];
}

export interface Engine {
  runPiece(ctx: PieceRunContext): Promise<PieceRunResult>;
  /** The LLM Router (P10.05): picks one of `pieces` for a task created without one. Optional: without it, none. */
  routePiece?(ctx: RouteContext): Promise<RouteOutcome>;
}

export interface RouteContext {
  job: JobRecord;
  task: Task;
  pieces: readonly PieceDefinition[];
  signal: AbortSignal;
}
