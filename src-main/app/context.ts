// The app-wide context: built once by the composition root (create-maestro.ts) and handed to every operation.
import type { McpServers } from '../mcp/servers';
import type { TaskContext } from '../tasks/context';

export interface AppContext extends TaskContext {
  /** The workspaces' MCP servers and their saved tokens. */
  mcp: McpServers;
  version: string;
}
