// edit_file { path, old_string, new_string, replace_all? }: replaces an exact piece of text in a file of the
// workspace; the piece must occur exactly once unless replace_all is set (P4.55); needs edit permission. The result
// is a one-line summary, then a unified diff of the change (capped; see diff.ts), and the whole diff for the person
// (display). Its review shows the diff a call would apply, for the card when the policy asks before edits, and always
// asks for a file that runs code outside the sandbox (write-target.ts).
import fs from 'node:fs';
import { z } from 'zod';
import { diffSection, diffSections, REQUEST_CAPS } from './diff';
import { fail, ok } from './outcome';
import { callSummary } from './permission';
import { looksBinary } from './text';
import type { CallReview, ToolContext, ToolDef, ToolResult } from './types';
import { locateWrite, protectedWriteReview, type WriteTarget, writeTarget, writeText } from './write-target';

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

/** The edit a call would make, worked out without writing: the file's text before and after, or why it cannot. */
type Planned =
  | { ok: true; target: Extract<WriteTarget, { ok: true }>; before: string; after: string; count: number }
  | { ok: false; error: string };

function planEdit(args: EditFileArgs, ctx: ToolContext, find = writeTarget): Planned {
  const target = find('edit_file', args.path, ctx);
  if (!target.ok) return target;
  if (!target.existing) return { ok: false, error: `${args.path} does not exist; use write_file to create it` };
  if (args.old_string === args.new_string) {
    return { ok: false, error: 'old_string and new_string are the same; nothing to change' };
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(target.path);
  } catch (e) {
    return { ok: false, error: `cannot read ${args.path}: ${(e as Error).message}` };
  }
  if (looksBinary(bytes)) return { ok: false, error: `${args.path} is a binary file; edit_file edits text only` };
  const before = bytes.toString('utf8');
  const count = countOccurrences(before, args.old_string);
  if (count === 0) return { ok: false, error: `old_string was not found in ${args.path}; the file is unchanged` };
  if (count > 1 && !args.replace_all) {
    return {
      ok: false,
      error: `old_string occurs ${count} times in ${args.path}; add surrounding lines to make it unique, or set replace_all to true. The file is unchanged`,
    };
  }
  const after = args.replace_all
    ? before.split(args.old_string).join(args.new_string)
    : before.replace(args.old_string, () => args.new_string);
  return { ok: true, target, before, after, count };
}

const occurrences = (count: number) => `${count} occurrence${count === 1 ? '' : 's'}`;

export async function editFile(args: EditFileArgs, ctx: ToolContext): Promise<ToolResult> {
  const plan = planEdit(args, ctx);
  if (!plan.ok) return fail(plan.error);
  const { target, before, after, count } = plan;
  try {
    writeText(target, after);
  } catch (e) {
    return fail(`cannot write ${args.path}: ${(e as Error).message}`);
  }
  const summary = `Edited ${target.rel}: replaced ${occurrences(count)}`;
  const diff = diffSections(target.rel, before, after);
  const result = ok(`${summary}\n${diff.model}`);
  return diff.display === undefined ? result : { ...result, display: `${summary}\n${diff.display}` };
}

/**
 * edit_file's review (permission.ts): the call runs unless the Workspace Tool Policy asks first; then the card shows
 * the diff it would apply, whole, worked out without writing (or, when it cannot apply now, why, and its arguments).
 */
export function reviewEdit(args: EditFileArgs, ctx: ToolContext): CallReview {
  const target = locateWrite('edit_file', args.path, ctx);
  if (target.ok && target.runsOutside !== null) {
    return protectedWriteReview(target.rel, target.runsOutside, editSummary(args, ctx));
  }
  return { kind: 'run', askSummary: () => editSummary(args, ctx) };
}

function editSummary(args: EditFileArgs, ctx: ToolContext): string {
  const plan = planEdit(args, ctx, locateWrite);
  if (!plan.ok) return `Edit ${args.path} (no diff: ${plan.error})\n${callSummary('edit_file', args)}`;
  const { target, before, after, count } = plan;
  return `Edit ${target.rel}: replace ${occurrences(count)}\n${diffSection(target.rel, before, after, REQUEST_CAPS)}`;
}

export const editFileTool: ToolDef<EditFileArgs> = {
  name: 'edit_file',
  description:
    'Replace an exact piece of text in a file of the workspace. old_string must occur exactly once, unless replace_all is true.',
  parameters: EditFileArgs,
  readOnly: false,
  needs: ['edit'],
  review: reviewEdit,
  execute: editFile,
};
