// The one contract: every operation the renderer or an outside caller can invoke, with its input schema, output schema
// and HTTP route. Each area declares its own (contract/*.ts); this file assembles them into the one table the preload
// facade, IPC handlers, HTTP routes and renderer client are all derived from.
import type { z } from 'zod';
import { agentOperations } from './contract/agents';
import { appOperations } from './contract/app';
import { callerOperations } from './contract/callers';
import { checkpointOperations } from './contract/checkpoints';
import { grantOperations } from './contract/grants';
import { lessonOperations } from './contract/lessons';
import { mcpOperations } from './contract/mcp';
import type { OperationDef } from './contract/operation';
import { profileOperations } from './contract/profiles';
import { requestOperations } from './contract/requests';
import { settingsOperations } from './contract/settings';
import { settingsChangeOperations } from './contract/settings-changes';
import { spaceOperations } from './contract/spaces';
import { sshOperations } from './contract/ssh';
import { taskOperations } from './contract/tasks';
import { usageOperations } from './contract/usage';
import type { OperationName } from './operation-names';

export { ATTACHMENT_MAX_BYTES, ATTACHMENTS_TOTAL_MAX_BYTES, base64Bytes, MIB } from './attachments';
export { REMOTE_AGENT_NAME, RemoteAgentView } from './contract/agents';
export { Caller, CallerRole, CallerSpaces } from './contract/callers';
export { ENV_NAME, MCP_SERVER_NAME, McpPrompt, McpPromptField, McpServerDraft, McpServerView } from './contract/mcp';
export type { OperationDef } from './contract/operation';
export { ProfileLoadError, ProfileName, ProfileView, SaveProfileInput } from './contract/profiles';
export { SettingsChangeView } from './contract/settings-changes';
export { SSH_TARGET_NAME, SshTargetView } from './contract/ssh';
export { Attachment, Attachments, CHAT_PAGE_SIZE, TASK_PAGE_DEFAULT, TASK_PAGE_MAX } from './contract/tasks';
export { Usage } from './contract/usage';

/** The areas' operations as one table, which must name exactly the operations of OPERATION_NAMES. */
const table = <T extends { [N in OperationName]: OperationDef }>(
  operations: T & { [K in Exclude<keyof T, OperationName>]: never },
) => operations;

export const contract = table({
  ...appOperations,
  ...taskOperations,
  ...spaceOperations,
  ...requestOperations,
  ...grantOperations,
  ...checkpointOperations,
  ...usageOperations,
  ...profileOperations,
  ...settingsOperations,
  ...settingsChangeOperations,
  ...mcpOperations,
  ...agentOperations,
  ...sshOperations,
  ...callerOperations,
  ...lessonOperations,
});

export type Contract = typeof contract;
export { IPC_EVENT_CHANNEL, ipcChannel, OPERATION_NAMES, type OperationName } from './operation-names';
export type OpInput<N extends OperationName> = z.input<Contract[N]['input']>;
export type OpParsedInput<N extends OperationName> = z.output<Contract[N]['input']>;
export type OpOutput<N extends OperationName> = z.infer<Contract[N]['output']>;

export const API_PREFIX = '/api/local';
export const EVENTS_PATH = '/events';

/** Path parameters named in a route, e.g. ['taskId', 'requestId']. */
export const pathParams = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);

/** The typed API every transport offers: one async method per operation plus an event subscription. */
export type MaestroApi = { [N in OperationName]: (input: OpInput<N>) => Promise<OpOutput<N>> };
