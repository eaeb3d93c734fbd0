// write_file { path, content }: creates or replaces a text file of the workspace (atomically); needs edit permission.
// The result is a one-line summary, then a unified diff of the change (capped; see diff.ts) for the UI.
import fs from 'node:fs';
import { z } from 'zod';
import { DIFF_MAX_SOURCE_BYTES, diffSection } from './diff';
import { fail, ok } from './outcome';
import { looksBinary } from './text';
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
  // The old content, for the diff in the result (the file is about to be replaced).
  let before: string | null = null;
  let noDiff: string | null = null;
  if (target.existing) {
    if (target.existing.size > DIFF_MAX_SOURCE_BYTES) noDiff = '(no diff: the old file is too large to compare)';
    else {
      try {
        const bytes = fs.readFileSync(target.path);
        if (looksBinary(bytes)) noDiff = '(no diff: the old file was binary)';
        else before = bytes.toString('utf8');
      } catch {
        noDiff = '(no diff: the old file could not be read)';
      }
    }
  }
  try {
    writeText(target, args.content);
  } catch (e) {
    return fail(`cannot write ${args.path}: ${(e as Error).message}`);
  }
  const bytes = Buffer.byteLength(args.content);
  const summary = `${target.existing ? 'Replaced' : 'Created'} ${target.rel} (${bytes} bytes)`;
  return ok(`${summary}\n${noDiff ?? diffSection(target.rel, before, args.content)}`);
}

export const writeFileTool: ToolDef<WriteFileArgs> = {
  name: 'write_file',
  description:
    'Create a file of the workspace or replace its whole content. Prefer edit_file to change part of an existing file.',
  parameters: WriteFileArgs,
  readOnly: false,
  needs: ['edit'],
  execute: writeFile,
};
