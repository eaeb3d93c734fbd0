// What the bridge's HTTP tests share: a valid body per operation, a parked task, a route's path, a snapshot of
// everything that must not change, and the error shape every refusal has.
import fs from 'node:fs';
import { expect } from 'vitest';
import type { Maestro } from '../src-main/app/create-maestro';
import { contract, type OperationName } from '../src-shared/contract';
import type { ApiResponse } from './bridge-harness';
/** A body each operation accepts, so a refusal can only come from what the test changed. */
export const VALID_BODY: Record<OperationName, unknown> = {
  health: undefined,
  listHosts: undefined,
  listPieces: undefined,
  createTask: { instruction: 'write a haiku' },
  runTask: { instruction: 'write a haiku', waitMs: 1 },
  listTasks: undefined,
  listSpaces: undefined,
  updateSpace: { name: 'renamed' },
  getTask: undefined,
  getTaskRecent: undefined,
  listChatBefore: undefined,
  addComment: { body: 'one more thing' },
  continueTask: {},
  cancelTask: undefined,
  listToolRequests: undefined,
  decideToolRequest: { decision: 'approve' },
  listPackageRequests: undefined,
  decidePackageRequest: { decision: 'approve' },
  listTaskGrants: undefined,
  revokeTaskGrant: undefined,
  listCheckpoints: undefined,
  getTaskChanges: undefined,
  revertTaskFile: { path: 'a.txt' },
  rewindTask: { checkpointId: 'cp', mode: 'files' },
  forkTask: { send: 1 },
  getCheckpointUsage: undefined,
  getTranscript: undefined,
  getUsage: undefined,
  getContextGauge: undefined,
  listTaskEvents: undefined,
  listProfiles: undefined,
  saveProfile: { name: 'local', baseURL: 'http://127.0.0.1:9/v1', model: 'local-model' },
  deleteProfile: undefined,
  testProfile: undefined,
  listModels: { baseURL: 'http://127.0.0.1:9/v1' },
  getAutoPrompter: undefined,
  saveAutoPrompter: { enabled: false, rules: [] },
  listMcpServers: undefined,
  saveMcpToken: { workspacePath: '/no/such/workspace', server: 'github', token: 'ghp_test' },
  listRemoteAgents: undefined,
  saveRemoteAgentToken: { workspacePath: '/no/such/workspace', agent: 'helper', token: 'agent_test' },
  listSshTargets: undefined,
  saveSshTargetKey: { workspacePath: '/no/such/workspace', target: 'box', keyFile: '/no/such/key' },
  setMcpServerEnabled: { workspacePath: '/no/such/workspace', server: 'github', enabled: false },
  checkMcpServer: { workspacePath: '/no/such/workspace', server: 'github' },
  startMcpSignIn: { workspacePath: '/no/such/workspace', server: 'github' },
  completeMcpSignIn: { workspacePath: '/no/such/workspace', server: 'github', address: 'http://127.0.0.1:1/callback' },
  addMcpServer: {
    workspacePath: '/no/such/workspace',
    server: { transport: 'http', name: 'docs', url: 'https://x.test/mcp' },
  },
  removeMcpServer: { workspacePath: '/no/such/workspace', server: 'github' },
  listMcpPrompts: undefined,
  answerMcpPrompt: { action: 'decline' },
  listRecentFolders: undefined,
  getToolPolicy: undefined,
  saveToolPolicy: { workspacePath: '/no/such/workspace', policy: {} },
  getSettings: undefined,
  saveSettings: { notifications: { os: true, sound: false } },
  getStorageUsage: undefined,
  cleanUpStorage: {},
  listSettingsChanges: undefined,
  acceptSettingsChange: { workspacePath: '/no/such/workspace', file: '.maestro/policy.json', currentSha256: null },
  acceptAllSettingsChanges: {
    workspacePath: '/no/such/workspace',
    files: [{ file: '.maestro/policy.json', currentSha256: null }],
  },
  rejectSettingsChange: { workspacePath: '/no/such/workspace', file: '.maestro/policy.json' },
  retryNow: undefined,
  renameTask: { title: 'renamed' },
  archiveTask: { archived: true },
  deleteTask: undefined,
  getTaskAttachment: undefined,
  createCaller: { name: 'ci', spaces: 'all', role: 'script' },
  listCallers: undefined,
  revokeCaller: undefined,
  reflectOnTask: undefined,
  listTaskLessons: undefined,
  listLessons: undefined,
  decideLesson: { decision: 'approve' },
  editLesson: { text: 'Run the tests before saying it works.' },
};

/** A task whose job waits on one tool request and one package request. */
export function seedParkedTask(maestro: Maestro) {
  const { task, job } = maestro.invoke('createTask', { instruction: 'seed' });
  const { store } = maestro;
  store.jobs.transition(job.id, 'queued', 'running', { workerId: 'w-test' });
  store.jobs.transition(job.id, 'running', 'waiting_human', { waitReason: 'tool_request' });
  const tool = store.toolRequests.insert(task.id, job.id, {
    callId: 'call_1',
    tool: 'run_command',
    args: { command: 'ls' },
    summary: 'run `ls` in the workspace',
  });
  const pkg = store.packageRequests.insert(task.id, job.id, {
    callId: 'call_2',
    manager: 'npm',
    name: 'left-pad',
    version: null,
    reason: 'padding',
  });
  return { task, job, tool, pkg };
}

export const pathOf = (name: OperationName, ids: { taskId: string; requestId: string; itemId?: string }) =>
  contract[name].path
    .replace(':taskId', encodeURIComponent(ids.taskId))
    .replace(':requestId', ids.requestId)
    .replace(':itemId', ids.itemId ?? 'cmt_nope')
    .replace(':grantId', 'grant_nope')
    .replace(':callerId', 'caller_nope')
    .replace(':lessonId', 'lesson_nope')
    .replace(':promptId', 'prompt_nope');

/** Every row of every table, and every file of the data dir but the DB's own: what "nothing changed" compares. */
export function snapshot(maestro: Maestro): string {
  const { db } = maestro.store;
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
    name: string;
  }[];
  const rows = tables.map((t) => [t.name, db.prepare(`SELECT * FROM "${t.name}" ORDER BY rowid`).all()]);
  const files = (fs.readdirSync(maestro.ctx.dataDir, { recursive: true }) as string[])
    .filter((f) => !f.startsWith('maestro.db'))
    .sort();
  return JSON.stringify({ rows, files });
}

export function expectErrorShape(res: ApiResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(Object.keys(res.json)).toEqual(['error']);
  expect(res.json.error.code).toBe(code);
  expect(typeof res.json.error.message).toBe('string');
  expect(res.json.error.message.length).toBeGreaterThan(0);
}
