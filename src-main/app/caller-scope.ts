// What each operation of the contract is to a caller's token (P1.20, P10.08), one entry per operation so a new one
// does not compile until it is placed: says nothing about any task (open), one task's route (task: 404 unless the
// caller sees its space), makes a task (create: in a space of the caller's), lists (list: filtered to the caller's
// spaces), or the host's own configuration and its callers (owner: 403 to every caller).
import type { OperationName, OpOutput, OpParsedInput } from '../../src-shared/contract';
import type { CallerView } from './caller-view';

export type CallerScope<N extends OperationName> =
  | { kind: 'open' }
  | { kind: 'task' }
  | { kind: 'create' }
  | {
      kind: 'list';
      /** The input narrowed to what the caller sees before the operation runs, or the answer when it sees nothing. */
      narrow?: (view: CallerView, input: OpParsedInput<N>) => { input: OpParsedInput<N> } | { answer: OpOutput<N> };
      filter: (view: CallerView, output: OpOutput<N>) => OpOutput<N>;
    }
  | { kind: 'owner' };

const open = { kind: 'open' } as const;
const task = { kind: 'task' } as const;
const create = { kind: 'create' } as const;
const owner = { kind: 'owner' } as const;

export const CALLER_SCOPES: { [N in OperationName]: CallerScope<N> } = {
  health: open,
  // The host's default folder's own pieces (and its broken piece files' paths) only to a caller of its space.
  listPieces: {
    kind: 'list',
    filter: (view, { pieces, errors }) =>
      view.seesDefaultFolder()
        ? { pieces, errors }
        : { pieces: pieces.filter((p) => p.source === 'builtin'), errors: [] },
  },
  createTask: create,
  runTask: create,
  // Listed from the caller's spaces only (those of `space` it sees), so its pages are full pages of its own tasks.
  listTasks: {
    kind: 'list',
    narrow: (view, input) => {
      const spaces = view.caller.spaces;
      if (spaces === 'all') return { input };
      const space = input.space ? input.space.filter((id) => spaces.includes(id)) : spaces;
      return space.length === 0 ? { answer: { tasks: [], nextCursor: null } } : { input: { ...input, space } };
    },
    filter: (view, { tasks, nextCursor }) => ({ tasks: tasks.filter((t) => view.seesTask(t.id)), nextCursor }),
  },
  listSpaces: { kind: 'list', filter: (view, { spaces }) => ({ spaces: spaces.filter((s) => view.seesSpace(s.id)) }) },
  listRecentFolders: {
    kind: 'list',
    filter: (view, { folders, defaultFolder }) => ({
      folders: folders.filter((f) => view.seesFolder(f.path)),
      defaultFolder: defaultFolder !== null && view.seesFolder(defaultFolder) ? defaultFolder : null,
    }),
  },
  updateSpace: owner,
  getTask: task,
  getTaskRecent: task,
  listChatBefore: task,
  addComment: task,
  continueTask: task,
  cancelTask: task,
  listToolRequests: task,
  decideToolRequest: task,
  listPackageRequests: task,
  decidePackageRequest: task,
  listMcpPrompts: task,
  answerMcpPrompt: task,
  listTaskGrants: task,
  revokeTaskGrant: task,
  listCheckpoints: task,
  getTaskChanges: task,
  revertTaskFile: task,
  rewindTask: task,
  forkTask: task,
  getTranscript: task,
  getUsage: task,
  getContextGauge: task,
  listTaskEvents: task,
  retryNow: task,
  renameTask: task,
  archiveTask: task,
  deleteTask: task,
  getTaskAttachment: task,
  reflectOnTask: task,
  listTaskLessons: task,
  // A lesson reaches every later task in its scope (other spaces' too): the host's own to decide.
  listLessons: owner,
  decideLesson: owner,
  editLesson: owner,
  // Sums over every task's checkpoints, and names the data dir.
  getCheckpointUsage: owner,
  listProfiles: owner,
  saveProfile: owner,
  deleteProfile: owner,
  testProfile: owner,
  listModels: owner,
  getAutoPrompter: owner,
  saveAutoPrompter: owner,
  listMcpServers: owner,
  saveMcpToken: owner,
  listRemoteAgents: owner,
  saveRemoteAgentToken: owner,
  listSshTargets: owner,
  saveSshTargetKey: owner,
  setMcpServerEnabled: owner,
  checkMcpServer: owner,
  startMcpSignIn: owner,
  completeMcpSignIn: owner,
  addMcpServer: owner,
  removeMcpServer: owner,
  getToolPolicy: owner,
  saveToolPolicy: owner,
  getSettings: owner,
  getStorageUsage: owner,
  listHosts: owner,
  cleanUpStorage: owner,
  saveSettings: owner,
  listSettingsChanges: owner,
  acceptSettingsChange: owner,
  acceptAllSettingsChanges: owner,
  rejectSettingsChange: owner,
  createCaller: owner,
  listCallers: owner,
  revokeCaller: owner,
};
