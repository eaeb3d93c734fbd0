// For the client's tests only: one case per contract operation, its input and the HTTP request the bridge expects.
// Over 300 lines because it stays one table: a new operation without its case fails the typecheck here.
import type { OperationName } from '../../../src-shared/contract';

const TASK = 'task 1/ä';
const TASK_IN_PATH = 'task%201%2F%C3%A4';
const REQ = 'req-7';

export interface Case {
  input: Record<string, unknown>;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

// Written from bridge-api.md's route table, independently of the contract object the client derives from.
export const CASES: Record<OperationName, Case> = {
  health: { input: {}, method: 'GET', path: '/api/local/health' },
  listHosts: { input: {}, method: 'GET', path: '/api/local/hosts' },
  listPieces: { input: {}, method: 'GET', path: '/api/local/pieces' },
  createTask: {
    input: { instruction: 'Do it', title: 'T', pieceId: 'default' },
    method: 'POST',
    path: '/api/local/tasks',
    body: { instruction: 'Do it', title: 'T', pieceId: 'default' },
  },
  listTasks: { input: {}, method: 'GET', path: '/api/local/tasks' },
  getTask: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}` },
  getTaskRecent: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/recent` },
  listChatBefore: {
    input: { taskId: TASK, itemId: 'cmt 9/ü' },
    method: 'GET',
    path: `/api/local/tasks/${TASK_IN_PATH}/chat/before/cmt%209%2F%C3%BC`,
  },
  addComment: {
    input: { taskId: TASK, body: 'hello' },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/comments`,
    body: { body: 'hello' },
  },
  continueTask: {
    input: { taskId: TASK, instruction: 'more' },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/continue`,
    body: { instruction: 'more' },
  },
  cancelTask: {
    input: { taskId: TASK },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/cancel`,
    body: {},
  },
  listToolRequests: {
    input: { taskId: TASK },
    method: 'GET',
    path: `/api/local/tasks/${TASK_IN_PATH}/tool-requests`,
  },
  decideToolRequest: {
    input: { taskId: TASK, requestId: REQ, decision: 'approve', scope: 'task' },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/tool-requests/${REQ}/decide`,
    body: { decision: 'approve', scope: 'task' },
  },
  listTaskGrants: {
    input: { taskId: TASK },
    method: 'GET',
    path: `/api/local/tasks/${TASK_IN_PATH}/grants`,
  },
  revokeTaskGrant: {
    input: { taskId: TASK, grantId: 'grant_1' },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/grants/grant_1/revoke`,
    body: {},
  },
  listCheckpoints: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/checkpoints` },
  getTaskChanges: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/changes` },
  revertTaskFile: {
    input: { taskId: TASK, path: 'src/a.ts' },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/changes/revert`,
    body: { path: 'src/a.ts' },
  },
  rewindTask: {
    input: { taskId: TASK, checkpointId: 'cp_1', mode: 'both' },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/rewind`,
    body: { checkpointId: 'cp_1', mode: 'both' },
  },
  forkTask: {
    input: { taskId: TASK, send: 2, instruction: 'again' },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/fork`,
    body: { send: 2, instruction: 'again' },
  },
  getCheckpointUsage: { input: {}, method: 'GET', path: '/api/local/checkpoints/usage' },
  listPackageRequests: {
    input: { taskId: TASK },
    method: 'GET',
    path: `/api/local/tasks/${TASK_IN_PATH}/package-requests`,
  },
  decidePackageRequest: {
    input: { taskId: TASK, requestId: REQ, decision: 'deny' },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/package-requests/${REQ}/decide`,
    body: { decision: 'deny' },
  },
  getTranscript: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/transcript` },
  getUsage: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/usage` },
  getContextGauge: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/context` },
  listTaskEvents: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/events` },
  listProfiles: { input: {}, method: 'GET', path: '/api/local/profiles' },
  saveProfile: {
    input: { name: 'local', baseURL: 'http://127.0.0.1:1234/v1', model: 'm', apiKey: 'sk-x' },
    method: 'POST',
    path: '/api/local/profiles',
    body: { name: 'local', baseURL: 'http://127.0.0.1:1234/v1', model: 'm', apiKey: 'sk-x' },
  },
  deleteProfile: { input: { name: 'lo.cal' }, method: 'POST', path: '/api/local/profiles/lo.cal/delete', body: {} },
  testProfile: { input: { name: 'local' }, method: 'POST', path: '/api/local/profiles/local/test', body: {} },
  listModels: {
    input: { baseURL: 'http://127.0.0.1:11434/v1', kind: 'ollama' },
    method: 'POST',
    path: '/api/local/profiles/models',
    body: { baseURL: 'http://127.0.0.1:11434/v1', kind: 'ollama' },
  },
  listMcpServers: {
    input: { workspacePath: '/home/me/my project' },
    method: 'GET',
    path: '/api/local/mcp/servers/%2Fhome%2Fme%2Fmy%20project',
  },
  saveMcpToken: {
    input: { workspacePath: '/ws', server: 'github', token: 'ghp_x' },
    method: 'POST',
    path: '/api/local/mcp/tokens',
    body: { workspacePath: '/ws', server: 'github', token: 'ghp_x' },
  },
  listRemoteAgents: {
    input: { workspacePath: '/home/me/my project' },
    method: 'GET',
    path: '/api/local/agents/remote/%2Fhome%2Fme%2Fmy%20project',
  },
  saveRemoteAgentToken: {
    input: { workspacePath: '/ws', agent: 'helper', token: 'tok_x' },
    method: 'POST',
    path: '/api/local/agents/tokens',
    body: { workspacePath: '/ws', agent: 'helper', token: 'tok_x' },
  },
  listSshTargets: {
    input: { workspacePath: '/home/me/my project' },
    method: 'GET',
    path: '/api/local/ssh/targets/%2Fhome%2Fme%2Fmy%20project',
  },
  saveSshTargetKey: {
    input: { workspacePath: '/ws', target: 'box', keyFile: '/home/me/.ssh/id_ed25519' },
    method: 'POST',
    path: '/api/local/ssh/keys',
    body: { workspacePath: '/ws', target: 'box', keyFile: '/home/me/.ssh/id_ed25519' },
  },
  setMcpServerEnabled: {
    input: { workspacePath: '/ws', server: 'github', enabled: false },
    method: 'POST',
    path: '/api/local/mcp/enabled',
    body: { workspacePath: '/ws', server: 'github', enabled: false },
  },
  checkMcpServer: {
    input: { workspacePath: '/ws', server: 'github' },
    method: 'POST',
    path: '/api/local/mcp/check',
    body: { workspacePath: '/ws', server: 'github' },
  },
  startMcpSignIn: {
    input: { workspacePath: '/ws', server: 'github' },
    method: 'POST',
    path: '/api/local/mcp/sign-in',
    body: { workspacePath: '/ws', server: 'github' },
  },
  completeMcpSignIn: {
    input: { workspacePath: '/ws', server: 'github', address: 'http://127.0.0.1:5/callback?code=c&state=s' },
    method: 'POST',
    path: '/api/local/mcp/sign-in/complete',
    body: { workspacePath: '/ws', server: 'github', address: 'http://127.0.0.1:5/callback?code=c&state=s' },
  },
  addMcpServer: {
    input: { workspacePath: '/ws', server: { transport: 'http', name: 'docs', url: 'https://x.test/mcp' } },
    method: 'POST',
    path: '/api/local/mcp/servers',
    body: { workspacePath: '/ws', server: { transport: 'http', name: 'docs', url: 'https://x.test/mcp' } },
  },
  removeMcpServer: {
    input: { workspacePath: '/ws', server: 'github' },
    method: 'POST',
    path: '/api/local/mcp/remove',
    body: { workspacePath: '/ws', server: 'github' },
  },
  listMcpPrompts: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/mcp-prompts` },
  answerMcpPrompt: {
    input: { taskId: TASK, promptId: REQ, action: 'accept', content: { name: 'Ada' } },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/mcp-prompts/${REQ}/answer`,
    body: { action: 'accept', content: { name: 'Ada' } },
  },
  getAutoPrompter: { input: {}, method: 'GET', path: '/api/local/auto-prompter' },
  saveAutoPrompter: {
    input: { enabled: true, rules: [] },
    method: 'POST',
    path: '/api/local/auto-prompter',
    body: { enabled: true, rules: [] },
  },
  listRecentFolders: { input: {}, method: 'GET', path: '/api/local/workspaces/recent' },
  listSpaces: { input: {}, method: 'GET', path: '/api/local/spaces' },
  runTask: {
    input: { instruction: 'x', waitMs: 5 },
    method: 'POST',
    path: '/api/local/tasks/run',
    body: { instruction: 'x', waitMs: 5 },
  },
  updateSpace: {
    input: { spaceId: 'spc_1', pinnedPieceId: null },
    method: 'POST',
    path: '/api/local/spaces/spc_1',
    body: { pinnedPieceId: null },
  },
  getToolPolicy: {
    input: { workspacePath: '/home/me/my project' },
    method: 'GET',
    path: '/api/local/tool-policy/%2Fhome%2Fme%2Fmy%20project',
  },
  saveToolPolicy: {
    input: { workspacePath: '/ws', policy: { tools: { deny: ['write_file'] } } },
    method: 'POST',
    path: '/api/local/tool-policy',
    body: { workspacePath: '/ws', policy: { tools: { deny: ['write_file'] } } },
  },
  getSettings: { input: {}, method: 'GET', path: '/api/local/settings' },
  saveSettings: {
    input: { notifications: { os: true, sound: false } },
    method: 'POST',
    path: '/api/local/settings',
    body: { notifications: { os: true, sound: false } },
  },
  getStorageUsage: { input: {}, method: 'GET', path: '/api/local/storage' },
  cleanUpStorage: { input: {}, method: 'POST', path: '/api/local/storage/clean-up', body: {} },
  listSettingsChanges: {
    input: { workspacePath: '/home/me/my project' },
    method: 'GET',
    path: '/api/local/settings-changes/%2Fhome%2Fme%2Fmy%20project',
  },
  acceptSettingsChange: {
    input: { workspacePath: '/ws', file: '.maestro/policy.json', currentSha256: null },
    method: 'POST',
    path: '/api/local/settings-changes/%2Fws/accept',
    body: { file: '.maestro/policy.json', currentSha256: null },
  },
  acceptAllSettingsChanges: {
    input: { workspacePath: '/ws', files: [{ file: '.maestro/policy.json', currentSha256: null }] },
    method: 'POST',
    path: '/api/local/settings-changes/%2Fws/accept-all',
    body: { files: [{ file: '.maestro/policy.json', currentSha256: null }] },
  },
  rejectSettingsChange: {
    input: { workspacePath: '/ws', file: '.maestro/mcp.json' },
    method: 'POST',
    path: '/api/local/settings-changes/%2Fws/reject',
    body: { file: '.maestro/mcp.json' },
  },
  retryNow: { input: { taskId: TASK }, method: 'POST', path: `/api/local/tasks/${TASK_IN_PATH}/retry-now`, body: {} },
  renameTask: {
    input: { taskId: TASK, title: 'Better' },
    method: 'PATCH',
    path: `/api/local/tasks/${TASK_IN_PATH}`,
    body: { title: 'Better' },
  },
  archiveTask: {
    input: { taskId: TASK, archived: true },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/archive`,
    body: { archived: true },
  },
  deleteTask: { input: { taskId: TASK }, method: 'DELETE', path: `/api/local/tasks/${TASK_IN_PATH}` },
  getTaskAttachment: {
    input: { taskId: TASK, name: 'shot 1#.png' },
    method: 'GET',
    path: `/api/local/tasks/${TASK_IN_PATH}/attachments/shot%201%23.png`,
  },
  createCaller: {
    input: { name: 'ci', spaces: ['spc_1'], role: 'script' },
    method: 'POST',
    path: '/api/local/callers',
    body: { name: 'ci', spaces: ['spc_1'], role: 'script' },
  },
  listCallers: { input: {}, method: 'GET', path: '/api/local/callers' },
  revokeCaller: { input: { callerId: 'caller 1/ä' }, method: 'DELETE', path: '/api/local/callers/caller%201%2F%C3%A4' },
  reflectOnTask: {
    input: { taskId: TASK },
    method: 'POST',
    path: `/api/local/tasks/${TASK_IN_PATH}/reflect`,
    body: {},
  },
  listTaskLessons: { input: { taskId: TASK }, method: 'GET', path: `/api/local/tasks/${TASK_IN_PATH}/lessons` },
  listLessons: { input: {}, method: 'GET', path: '/api/local/lessons' },
  decideLesson: {
    input: { lessonId: 'lesson 1/ä', decision: 'approve', scope: 'everywhere' },
    method: 'POST',
    path: '/api/local/lessons/lesson%201%2F%C3%A4/decide',
    body: { decision: 'approve', scope: 'everywhere' },
  },
  editLesson: {
    input: { lessonId: 'lesson 1/ä', text: 'Run the tests first.' },
    method: 'POST',
    path: '/api/local/lessons/lesson%201%2F%C3%A4',
    body: { text: 'Run the tests first.' },
  },
};
