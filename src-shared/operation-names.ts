// The names of the contract's operations and their IPC channels, free of zod so the sandboxed preload can bundle it.
// contract.ts is checked against this list: a name missing from either side does not compile.
export const OPERATION_NAMES = [
  'health',
  'listPieces',
  'createTask',
  'runTask',
  'listTasks',
  'listSpaces',
  'updateSpace',
  'getTask',
  'getTaskRecent',
  'listChatBefore',
  'addComment',
  'continueTask',
  'cancelTask',
  'listToolRequests',
  'decideToolRequest',
  'listPackageRequests',
  'decidePackageRequest',
  'getTranscript',
  'getUsage',
  'listTaskEvents',
  'listProfiles',
  'saveProfile',
  'deleteProfile',
  'testProfile',
  'listModels',
  'getAutoPrompter',
  'saveAutoPrompter',
  'listRecentFolders',
  'listMcpServers',
  'saveMcpToken',
  'setMcpServerEnabled',
  'checkMcpServer',
  'getToolPolicy',
  'saveToolPolicy',
  'getSettings',
  'saveSettings',
  'listSettingsChanges',
  'acceptSettingsChange',
  'rejectSettingsChange',
  'retryNow',
  'renameTask',
  'archiveTask',
  'deleteTask',
  'getTaskAttachment',
] as const;
export type OperationName = (typeof OPERATION_NAMES)[number];

/** IPC channel of an operation; the only place the channel string is formed. */
export const ipcChannel = (name: OperationName): string => `maestro:${name}`;
/** IPC channel on which main pushes events to the window. */
export const IPC_EVENT_CHANNEL = 'maestro:event';
