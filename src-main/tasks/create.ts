// POST /tasks: validate, resolve piece, profile and workspace, then write task + instruction comment + queued job
// in one transaction.
import fs from 'node:fs';
import path from 'node:path';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { newId } from '../db/ids';
import { toJob } from '../db/repos/jobs';
import { writeFileAtomic } from '../workspace/atomic-write';
import { ephemeralWorkspace, runtimeDir } from '../workspace/paths';
import type { TaskContext } from './context';
import { invalid } from './errors';
import { insertTaskWithJob, titleFrom } from './job-lifecycle';

export const DEFAULT_PIECE = 'default';

/** An existing folder given by the caller, as its real path; anything else names the field. */
export function resolveWorkspaceFolder(given: string): string {
  if (!path.isAbsolute(given)) throw invalid('workspacePath', 'must be an absolute path');
  let real: string;
  try {
    real = fs.realpathSync(given);
  } catch {
    throw invalid('workspacePath', `${given} does not exist`);
  }
  if (!fs.statSync(real).isDirectory()) throw invalid('workspacePath', `${given} is not a folder`);
  return real;
}

export function createTask(ctx: TaskContext, input: OpParsedInput<'createTask'>): OpOutput<'createTask'> {
  const taskId = newId('task');
  const persistentFolder = input.workspacePath
    ? resolveWorkspaceFolder(input.workspacePath)
    : ctx.defaultWorkspace && resolveWorkspaceFolder(ctx.defaultWorkspace);

  const pieceId = input.pieceId ?? DEFAULT_PIECE;
  if (!ctx.pieces.get(pieceId, persistentFolder)) throw invalid('pieceId', `no piece named ${pieceId}`);

  if (input.profile && !ctx.profiles.has(input.profile))
    throw invalid('profile', `no LLM profile named ${input.profile}`);
  const profile = input.profile ?? ctx.profiles.defaultName;

  const names = new Set<string>();
  for (const a of input.attachments ?? []) {
    // Case-insensitive: on macOS and Windows the second file would overwrite the first.
    const key = a.name.toLowerCase();
    if (names.has(key)) throw invalid('attachments', `two attachments are named ${a.name}`);
    names.add(key);
    if ([...a.name].some((c) => c.charCodeAt(0) < 0x20)) throw invalid('attachments', `${a.name}: bad file name`);
    // The schema checks the alphabet; a length that is not a multiple of 4 is truncated base64 too.
    if (a.data.length % 4 !== 0) throw invalid('attachments', `${a.name}: data is not valid base64`);
  }

  const workspacePath = persistentFolder || ephemeralWorkspace(ctx.dataDir, taskId);
  const runDir = runtimeDir(ctx.dataDir, taskId);
  try {
    if (!persistentFolder) fs.mkdirSync(workspacePath, { recursive: true });
    for (const a of input.attachments ?? []) {
      writeFileAtomic(path.join(runDir, 'attachments', a.name), Buffer.from(a.data, 'base64'));
    }
    const { task, job } = insertTaskWithJob(ctx.store, {
      id: taskId,
      title: input.title ?? titleFrom(input.instruction),
      instruction: input.instruction,
      pieceId,
      workspacePath,
      workspaceKind: persistentFolder ? 'persistent' : 'ephemeral',
      profile,
      parentTaskId: null,
      parentJobId: null,
      invoke: 'UserSend',
      author: 'user',
    });
    return { task, job: toJob(job) };
  } catch (error) {
    fs.rmSync(runDir, { recursive: true, force: true });
    if (!persistentFolder) fs.rmSync(workspacePath, { recursive: true, force: true });
    throw error;
  }
}
