// What task operations need from the composition root.
import type { Store } from '../db/store';
import type { PieceCatalog } from '../engine/pieces/catalog';
import type { ProfileRegistry } from '../llm/profiles';
import type { McpServers } from '../mcp/servers';
import type { JobAborts } from '../worker/aborts';

export interface TaskContext {
  store: Store;
  pieces: PieceCatalog;
  profiles: ProfileRegistry;
  /** The workspaces' MCP servers and their saved tokens. */
  mcp: McpServers;
  aborts: JobAborts;
  dataDir: string;
  /** --workspace: the folder of tasks created without one; null → an ephemeral folder per task. */
  defaultWorkspace: string | null;
  version: string;
  /** Tasks created without a piece are routed by the LLM (P10.05); off → the default piece. */
  pieceRouter: boolean;
}
