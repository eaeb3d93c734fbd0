// GET /tasks/:id/attachments/:name: one file attached to the task's instruction, read from the task's runtime dir
// (where createTask wrote it), for the chat's thumbnail. Only a file the instruction lists is served.
import fs from 'node:fs';
import path from 'node:path';
import { attachmentNameProblem } from '../../src-shared/attachments';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { runtimeDir } from '../workspace/paths';
import type { TaskContext } from './context';
import { invalid, notFound } from './errors';
import { requireTask } from './queries';

export function getTaskAttachment(
  ctx: TaskContext,
  { taskId, name }: OpParsedInput<'getTaskAttachment'>,
): OpOutput<'getTaskAttachment'> {
  requireTask(ctx, taskId);
  const problem = attachmentNameProblem(name);
  if (problem) throw invalid('name', `the name ${problem}`);
  const info = ctx.store.comments
    .listForTask(taskId)
    .flatMap((c) => (c.kind === 'instruction' ? (c.attachments ?? []) : []))
    .find((a) => a.name === name);
  if (!info) throw notFound(`attachment ${name} of task`, taskId);
  let data: Buffer;
  try {
    data = fs.readFileSync(path.join(runtimeDir(ctx.dataDir, taskId), 'attachments', name));
  } catch (error) {
    throw new MaestroError(
      'not_found',
      `attachment ${name} of task ${taskId} could not be read from its runtime dir: ${(error as Error).message}`,
    );
  }
  return { ...info, bytes: data.length, data: data.toString('base64') };
}
