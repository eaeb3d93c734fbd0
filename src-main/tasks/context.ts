// What task operations need: the DB, the pieces and profiles a task is checked against, the running jobs' aborts,
// and where tasks' folders live. The app's context (app/context.ts) is a superset of it.
import type { CheckpointService } from '../checkpoints/service';
import type { Store } from '../db/store';
import type { PieceCatalog } from '../engine/pieces/catalog';
import type { JobAborts } from '../jobs/aborts';
import type { ProfileRegistry } from '../llm/profiles';

export interface TaskContext {
  store: Store;
  pieces: PieceCatalog;
  profiles: ProfileRegistry;
  aborts: JobAborts;
  dataDir: string;
  /** --workspace: the folder of tasks created without one; null → an ephemeral folder per task. */
  defaultWorkspace: string | null;
  /** Tasks created without a piece are routed by the LLM (P10.05); off → the default piece. */
  pieceRouter: boolean;
  /** The tasks' checkpoints (the app always has them; a task deleted takes its refs with it). */
  checkpoints?: CheckpointService;
}
