// The app-wide context: built once by the composition root (create-maestro.ts) and handed to every operation.
import type { CheckpointService } from '../checkpoints/service';
import type { LessonContext } from '../lessons/operations';
import type { McpServers } from '../mcp/servers';
import type { McpTokenStore } from '../mcp/token-store';
import type { TaskContext } from '../tasks/context';
import type { TaskTitles } from '../tasks/task-titles';
import type { AcceptedSettings } from '../workspace/accepted-settings';
import type { HostPresence } from './host-presence';
import type { StorageUpkeep } from './storage-upkeep';

export interface AppContext extends TaskContext, LessonContext {
  /** The versions of the workspaces' settings files a person accepted: the only ones jobs apply. */
  accepted: AcceptedSettings;
  /** The workspaces' MCP servers and their saved tokens. */
  mcp: McpServers;
  /** The tokens people saved for the workspaces' remote agents (a2a_send), sealed like the MCP tokens. */
  agentTokens: McpTokenStore;
  /** The private keys people chose for the workspaces' SSH targets (ssh-keys.json), sealed like the tokens. */
  sshKeys: McpTokenStore;
  /** The tasks' checkpoints: taken while jobs run, rewound and listed by the operations. */
  checkpoints: CheckpointService;
  /** Keeps the data dir in bounds: retention, vacuum, the WAL; and what the data dir takes. */
  upkeep: StorageUpkeep;
  /** Names the tasks people start (a short title from their profile's model). */
  titles: TaskTitles;
  version: string;
  /** The name this host goes by (--host-name; default the machine's name). */
  hostName: string;
  /** This host among the others of its database: the folders it serves, its row in GET /hosts. */
  presence: HostPresence;
}
