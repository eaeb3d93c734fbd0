// POST /tasks: validate, resolve piece, profile and workspace, then write task + instruction comment + queued job
// in one transaction.
import fs from 'node:fs';
import path from 'node:path';
import { base64Bytes } from '../../src-shared/attachments';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import type { CommentAuthor } from '../../src-shared/entities';
import type { InvokeKind } from '../../src-shared/events';
import { newId } from '../db/ids';
import { toJob } from '../db/repos/jobs';
import type { SpaceRecord } from '../db/repos/spaces';
import { insertTaskWithJob, titleFrom } from '../jobs/lifecycle';
import { writeFileAtomic } from '../workspace/atomic-write';
import { ephemeralWorkspace, runtimeDir } from '../workspace/paths';
import type { TaskContext } from './context';
import { invalid } from './errors';

export const DEFAULT_PIECE = 'default';

/** An existing folder given by the caller, as its real path; anything else names the field. */
export function resolveWorkspaceFolder(given: string, field = 'workspacePath'): string {
  if (!path.isAbsolute(given)) throw invalid(field, 'must be an absolute path');
  let real: string;
  try {
    real = fs.realpathSync(given);
  } catch {
    throw invalid(field, `${given} does not exist`);
  }
  if (!fs.statSync(real).isDirectory()) throw invalid(field, `${given} is not a folder`);
  return real;
}

/** Where a persistent task works: its folder and the space that holds it (made with the task when there is none). */
interface Placement {
  folder: string;
  space: SpaceRecord | undefined;
}

/**
 * P10.07: a space given by id → its folder; a folder given (or the host's default) → the space that holds it, or a
 * new one named after it; neither → null, an ephemeral workspace with no space.
 */
function placeTask(ctx: TaskContext, input: OpParsedInput<'createTask'>): Placement | null {
  if (input.spaceId) {
    const space = ctx.store.spaces.get(input.spaceId);
    if (!space) throw invalid('spaceId', `no space ${input.spaceId}`);
    const folder = resolveWorkspaceFolder(space.folder, 'spaceId');
    if (input.workspacePath && resolveWorkspaceFolder(input.workspacePath) !== folder) {
      throw invalid(
        'workspacePath',
        `differs from the folder of space ${space.name} (${space.folder}); give one of them`,
      );
    }
    return { folder, space };
  }
  const given = input.workspacePath ?? ctx.defaultWorkspace;
  if (!given) return null;
  const folder = resolveWorkspaceFolder(given);
  return { folder, space: ctx.store.spaces.byFolder(folder) };
}

const spaceName = (folder: string) => path.basename(folder) || folder;

/** Who starts a task: a person (POST /tasks, the UI) or the Scheduler (P10.01: Invoke Wakeup, a system instruction). */
export interface TaskOrigin {
  invoke: InvokeKind;
  author: CommentAuthor;
}
const BY_USER: TaskOrigin = { invoke: 'UserSend', author: 'user' };
/** Another agent (POST /tasks/run, A2A; P10.02): Invoke PodEvent, the instruction by an agent. */
export const BY_AGENT: TaskOrigin = { invoke: 'PodEvent', author: 'agent' };

export function createTask(
  ctx: TaskContext,
  input: OpParsedInput<'createTask'>,
  origin: TaskOrigin = BY_USER,
): OpOutput<'createTask'> {
  const taskId = newId('task');
  const placement = placeTask(ctx, input);
  const persistentFolder = placement?.folder ?? null;

  // P10.03 a piece given is used; P10.04 a space pinned to a piece runs that piece (and no other).
  const pinned = placement?.space?.pinnedPieceId ?? null;
  if (pinned && input.pieceId && input.pieceId !== pinned) {
    throw invalid(
      'pieceId',
      `space ${placement?.space?.name} is pinned to piece ${pinned}; leave pieceId out or give ${pinned}`,
    );
  }
  const pieceId = input.pieceId ?? pinned ?? DEFAULT_PIECE;
  // The router runs before the first job (it needs the model); until then the task holds the default piece.
  const pieceChoice = input.pieceId ? 'given' : pinned ? 'pinned' : ctx.pieceRouter ? 'route' : 'default';
  if (!ctx.pieces.get(pieceId, persistentFolder)) throw invalid('pieceId', `no piece named ${pieceId}`);

  if (input.profile && !ctx.profiles.has(input.profile))
    throw invalid('profile', `no LLM profile named ${input.profile}`);
  const profile = input.profile ?? ctx.profiles.defaultName;

  // The schema checked names, types, sizes and the alphabet (src-shared/attachments.ts); a length that is not a
  // multiple of 4 is truncated base64 too.
  for (const a of input.attachments ?? []) {
    if (a.data.length % 4 !== 0) throw invalid('attachments', `${a.name}: data is not valid base64`);
  }

  const workspacePath = persistentFolder || ephemeralWorkspace(ctx.dataDir, taskId);
  const runDir = runtimeDir(ctx.dataDir, taskId);
  try {
    if (!persistentFolder) fs.mkdirSync(workspacePath, { recursive: true });
    for (const a of input.attachments ?? []) {
      writeFileAtomic(path.join(runDir, 'attachments', a.name), Buffer.from(a.data, 'base64'));
    }
    const { task, job } = ctx.store.transact(() =>
      insertTaskWithJob(ctx.store, {
        id: taskId,
        spaceId:
          placement &&
          (placement.space ?? ctx.store.spaces.forFolder(placement.folder, spaceName(placement.folder))).id,
        title: input.title ?? titleFrom(input.instruction),
        instruction: input.instruction,
        pieceId,
        pieceChoice,
        workspacePath,
        workspaceKind: persistentFolder ? 'persistent' : 'ephemeral',
        profile,
        parentTaskId: null,
        parentJobId: null,
        invoke: origin.invoke,
        author: origin.author,
        // What the chat shows of each file; its bytes stay in the runtime dir (getTaskAttachment reads them).
        attachments: (input.attachments ?? []).map((a) => ({
          name: a.name,
          mediaType: a.mediaType,
          bytes: base64Bytes(a.data),
        })),
      }),
    );
    return { task, job: toJob(job) };
  } catch (error) {
    fs.rmSync(runDir, { recursive: true, force: true });
    if (!persistentFolder) fs.rmSync(workspacePath, { recursive: true, force: true });
    throw error;
  }
}
