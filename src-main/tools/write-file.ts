// write_file { path, content }: creates or replaces a text file of the workspace (atomically); needs edit permission.
import { z } from 'zod';
import { fail, ok } from './outcome';
import type { ToolContext, ToolDef } from './types';
import { writeTarget, writeText } from './write-target';

export const WriteFileArgs = z.strictObject({
  path: z.string().min(1).describe('File path, relative to the workspace folder. Missing folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});
export type WriteFileArgs = z.infer<typeof WriteFileArgs>;

export async function writeFile(args: WriteFileArgs, ctx: ToolContext) {
  const target = writeTarget('write_file', args.path, ctx);
  if (!target.ok) return fail(target.error);
  try {
    writeText(target, args.content);
  } catch (e) {
    return fail(`cannot write ${args.path}: ${(e as Error).message}`);
  }
  const bytes = Buffer.byteLength(args.content);
  return ok(`${target.existing ? 'Replaced' : 'Created'} ${target.rel} (${bytes} bytes)`);
}

export const writeFileTool: ToolDef<WriteFileArgs> = {
  name: 'write_file',
  description:
    'Create a file of the workspace or replace its whole content. Prefer edit_file to change part of an existing file.',
  parameters: WriteFileArgs,
  readOnly: false,
  execute: writeFile,
};
