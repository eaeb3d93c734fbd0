// The implementation of every contract operation, and `invoke`: validate the input with the contract's schema,
// then run the operation. IPC and HTTP both call `invoke`, so no transport can skip validation.
import {
  type Contract,
  contract,
  type OperationName,
  type OpOutput,
  type OpParsedInput,
} from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import type { MaestroEvent } from '../../src-shared/events';
import { describeIssues, errorIssues } from '../../src-shared/issues';
import { summarize } from '../engine/pieces/catalog';
import { decideLesson, editLesson, listLessons, listTaskLessons, reflectOnTask } from '../lessons/operations';
import { getTaskAttachment } from '../tasks/attachments';
import { cancelTask } from '../tasks/cancel';
import {
  forkTask,
  getCheckpointUsage,
  getTaskChanges,
  listCheckpoints,
  revertTaskFile,
  rewindTask,
} from '../tasks/checkpoints';
import { addComment } from '../tasks/comment';
import { continueTask } from '../tasks/continue';
import { createTask } from '../tasks/create';
import { decidePackageRequest, decideToolRequest } from '../tasks/decide';
import { listTaskGrants, revokeTaskGrant } from '../tasks/grants';
import { archiveTask, deleteTask, renameTask } from '../tasks/manage';
import {
  getTask,
  getTaskRecent,
  getTranscript,
  listChatBefore,
  listPackageRequests,
  listTasks,
  listToolRequests,
  requireTask,
} from '../tasks/queries';
import { listRecentFolders } from '../tasks/recent-folders';
import { retryNow } from '../tasks/retry-now';
import { runTask } from '../tasks/run-task';
import { listSpaces, updateSpace } from '../tasks/spaces';
import { getContextGauge, getUsage } from '../tasks/usage';
import { getAutoPrompter, saveAutoPrompter } from './auto-prompter-operations';
import { createCaller, listCallers, revokeCaller } from './caller-operations';
import type { AppContext } from './context';
import {
  answerMcpPrompt,
  checkMcpServer,
  completeMcpSignIn,
  listMcpPrompts,
  listMcpServers,
  saveMcpToken,
  setMcpServerEnabled,
  startMcpSignIn,
} from './mcp-operations';
import { addMcpServer, removeMcpServer } from './mcp-server-operations';
import { deleteProfile, listModels, listProfiles, saveProfile, testProfile } from './profile-operations';
import { listRemoteAgents, saveRemoteAgentToken } from './remote-agent-operations';
import {
  acceptAllSettingsChanges,
  acceptSettingsChange,
  listSettingsChanges,
  rejectSettingsChange,
} from './settings-change-operations';
import { getSettings, saveSettings } from './settings-operations';
import { listSshTargets, saveSshTargetKey } from './ssh-target-operations';
import { getToolPolicy, saveToolPolicy } from './tool-policy-operations';

/** How many of a task's latest events the activity timeline gets. */
const TASK_EVENTS_LIMIT = 2000;

/** Operations that wait on the network answer with a Promise; every other one answers at once. */
export type AsyncOperation =
  | 'testProfile'
  | 'listModels'
  | 'runTask'
  | 'checkMcpServer'
  | 'startMcpSignIn'
  | 'completeMcpSignIn'
  | 'getTaskChanges'
  | 'revertTaskFile'
  | 'rewindTask'
  | 'getCheckpointUsage'
  | 'getStorageUsage'
  | 'cleanUpStorage'
  | 'getContextGauge';
export type OpAnswer<N extends OperationName> = N extends AsyncOperation ? Promise<OpOutput<N>> : OpOutput<N>;

export type Operations = { [N in OperationName]: (ctx: AppContext, input: OpParsedInput<N>) => OpAnswer<N> };

export const operations: Operations = {
  health: (ctx) => ({ ok: true, version: ctx.version, host: ctx.hostName }),
  // A host alone on its SQLite file is the only one; on a shared database each keeps its row (host-presence.ts).
  listHosts: (ctx) => ({
    hosts: ctx.store.shared ? ctx.store.hosts.list().map(({ startedAt: _, ...host }) => host) : [ctx.presence.self()],
  }),
  listPieces: (ctx) => {
    const { pieces, errors } = ctx.pieces.load(ctx.defaultWorkspace);
    return { pieces: pieces.map(summarize), errors };
  },
  createTask: (ctx, input) => {
    const created = createTask(ctx, input);
    // A title the person gave is theirs; only the first-line one is replaced by a short one from the model.
    if (input.title === undefined) void ctx.titles.name(created.task);
    return created;
  },
  runTask,
  listTasks,
  listSpaces,
  updateSpace,
  getTask,
  getTaskRecent,
  listChatBefore,
  addComment,
  continueTask,
  cancelTask,
  listToolRequests,
  decideToolRequest,
  listPackageRequests,
  decidePackageRequest,
  listTaskGrants,
  revokeTaskGrant,
  listCheckpoints,
  getTaskChanges,
  revertTaskFile,
  rewindTask,
  forkTask,
  getCheckpointUsage,
  getTranscript,
  listTaskEvents: (ctx, { taskId }) => {
    requireTask(ctx, taskId);
    const stored = ctx.store.events.lastForTask(taskId, TASK_EVENTS_LIMIT);
    // The LlmCalls of the same span, rebuilt from the log (their events are sent, not stored), in time order.
    // (From the oldest stored event only when the limit cut older ones off.)
    const since = stored.length === TASK_EVENTS_LIMIT && stored[0] ? Date.parse(stored[0].ts) : 0;
    const calls = ctx.store.logEntries.llmCallEvents(taskId, since, TASK_EVENTS_LIMIT);
    // And the comments whose events retention dropped (storage-upkeep.ts), rebuilt from the comments table.
    const logged = new Set(stored.flatMap((e) => (e.type === 'comment.created' ? [e.comment.id] : [])));
    const comments = ctx.store.comments
      .listForTask(taskId)
      .filter((c) => !logged.has(c.id) && Date.parse(c.createdAt) >= since)
      .map((comment): MaestroEvent => {
        return { type: 'comment.created', seq: 0, ts: comment.createdAt, taskId, jobId: comment.jobId, comment };
      });
    return {
      events: [...stored, ...calls, ...comments].sort((a, b) => (a.ts < b.ts ? -1 : a.ts > b.ts ? 1 : 0)),
    };
  },
  getUsage: (ctx, { taskId }) => getUsage(ctx, taskId),
  getContextGauge: (ctx, { taskId }) => getContextGauge(ctx, taskId),
  listProfiles,
  saveProfile,
  deleteProfile,
  testProfile,
  listModels,
  getAutoPrompter,
  saveAutoPrompter,
  listMcpServers,
  saveMcpToken,
  listRemoteAgents,
  saveRemoteAgentToken,
  listSshTargets,
  saveSshTargetKey,
  setMcpServerEnabled,
  checkMcpServer,
  startMcpSignIn,
  completeMcpSignIn,
  addMcpServer,
  removeMcpServer,
  listMcpPrompts,
  answerMcpPrompt,
  listRecentFolders,
  getToolPolicy,
  saveToolPolicy,
  getSettings,
  saveSettings,
  getStorageUsage: (ctx) => ctx.upkeep.usage(),
  cleanUpStorage: async (ctx) => {
    const before = await ctx.upkeep.usage();
    const { tasks, events } = await ctx.upkeep.run(Date.now(), { convert: true });
    return { before, after: await ctx.upkeep.usage(), tasks, events };
  },
  listSettingsChanges,
  acceptSettingsChange,
  acceptAllSettingsChanges,
  rejectSettingsChange,
  retryNow,
  renameTask,
  archiveTask,
  deleteTask,
  getTaskAttachment,
  createCaller,
  listCallers,
  revokeCaller,
  reflectOnTask,
  listTaskLessons,
  listLessons,
  decideLesson,
  editLesson,
};

export function parseInput<N extends OperationName>(name: N, raw: unknown): OpParsedInput<N> {
  const schema = (contract as Contract)[name].input;
  const parsed = schema.safeParse(raw ?? {});
  if (!parsed.success) {
    const summary = describeIssues(parsed.error.issues, { whole: 'input' });
    throw new MaestroError('invalid_input', `invalid input for ${name}: ${summary}`, errorIssues(parsed.error.issues));
  }
  return parsed.data as OpParsedInput<N>;
}

/** Validates `raw` against the operation's schema and runs it. Throws MaestroError for the caller's mistakes. */
export function invoke<N extends OperationName>(ctx: AppContext, name: N, raw: unknown): OpAnswer<N> {
  if (!Object.hasOwn(operations, name)) throw new MaestroError('not_found', `no operation named ${String(name)}`);
  const input = parseInput(name, raw);
  return (operations[name] as (ctx: AppContext, input: OpParsedInput<N>) => OpAnswer<N>)(ctx, input);
}
