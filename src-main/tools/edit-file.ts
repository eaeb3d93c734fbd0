// edit_file { path, old_string, new_string, replace_all? }: replaces an exact piece of text in a file of the
// workspace; the piece must occur exactly once unless replace_all is set (P4.55); needs edit permission. The result
// is a one-line summary, then a unified diff of the change (capped; see diff.ts) for the UI.
import fs from 'node:fs';
import { z } from 'zod';
import { diffSection } from './diff';
import { fail, ok } from './outcome';
import { looksBinary } from './text';
import type { ToolContext, ToolDef } from './types';
import { writeTarget, writeText } from './write-target';

export const EditFileArgs = z.strictObject({
  path: z.string().min(1).describe('File path, relative to the workspace folder. The file must exist.'),
  old_string: z
    .string()
    .min(1)
    .describe(
      'The exact text to replace, including whitespace; it must occur exactly once unless replace_all is true.',
    ),
  new_string: z.string().describe('The text to put in its place.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string. Default false.'),
});
export type EditFileArgs = z.infer<typeof EditFileArgs>;

function countOccurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

export async function editFile(args: EditFileArgs, ctx: ToolContext) {
  const target = writeTarget('edit_file', args.path, ctx);
  if (!target.ok) return fail(target.error);
  if (!target.existing) return fail(`${args.path} does not exist; use write_file to create it`);
  if (args.old_string === args.new_string) return fail('old_string and new_string are the same; nothing to change');
  const bytes = fs.readFileSync(target.path);
  if (looksBinary(bytes)) return fail(`${args.path} is a binary file; edit_file edits text only`);
  const text = bytes.toString('utf8');
  const count = countOccurrences(text, args.old_string);
  if (count === 0) return fail(`old_string was not found in ${args.path}; the file is unchanged`);
  if (count > 1 && !args.replace_all) {
    return fail(
      `old_string occurs ${count} times in ${args.path}; add surrounding lines to make it unique, or set replace_all to true. The file is unchanged`,
    );
  }
  const next = args.replace_all
    ? text.split(args.old_string).join(args.new_string)
    : text.replace(args.old_string, () => args.new_string);
  try {
    writeText(target, next);
  } catch (e) {
    return fail(`cannot write ${args.path}: ${(e as Error).message}`);
  }
  const summary = `Edited ${target.rel}: replaced ${count} occurrence${count === 1 ? '' : 's'}`;
  return ok(`${summary}\n${diffSection(target.rel, text, next)}`);
}

export const editFileTool: ToolDef<EditFileArgs> = {
  name: 'edit_file',
  description:
    'Replace an exact piece of text in a file of the workspace. old_string must occur exactly once, unless replace_all is true.',
  parameters: EditFileArgs,
  readOnly: false,
  needs: ['edit'],
  execute: editFile,
};
