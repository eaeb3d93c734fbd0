// write_file { path, content }: creates or replaces a text file of the workspace (atomically); needs edit permission.
// The result is a one-line summary, then a unified diff of the change (capped; see diff.ts), and the whole diff for
// the person (display). Its review shows the diff a call would apply, for the card when the policy asks before edits,
// and always asks for a file that runs code outside the sandbox (write-target.ts).
import fs from 'node:fs';
import { z } from 'zod';
import { DIFF_MAX_SOURCE_BYTES, diffSection, diffSections, REQUEST_CAPS } from './diff';
import { fail, ok } from './outcome';
import { callSummary } from './permission';
import { looksBinary } from './text';
import type { CallReview, ToolContext, ToolDef, ToolResult } from './types';
import { locateWrite, protectedWriteReview, type WriteTarget, writeTarget, writeText } from './write-target';

export const WriteFileArgs = z.strictObject({
  path: z.string().min(1).describe('File path, relative to the workspace folder. Missing folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});
export type WriteFileArgs = z.infer<typeof WriteFileArgs>;

/** The file's content before the write, for the diff: null for a new file, or why there is no diff. */
function oldContent(target: Extract<WriteTarget, { ok: true }>): { before: string | null } | { noDiff: string } {
  if (!target.existing) return { before: null };
  if (target.existing.size > DIFF_MAX_SOURCE_BYTES)
    return { noDiff: '(no diff: the old file is too large to compare)' };
  try {
    const bytes = fs.readFileSync(target.path);
    return looksBinary(bytes) ? { noDiff: '(no diff: the old file was binary)' } : { before: bytes.toString('utf8') };
  } catch {
    return { noDiff: '(no diff: the old file could not be read)' };
  }
}

export async function writeFile(args: WriteFileArgs, ctx: ToolContext): Promise<ToolResult> {
  const target = writeTarget('write_file', args.path, ctx);
  if (!target.ok) return fail(target.error);
  // Read before the file is replaced.
  const old = oldContent(target);
  try {
    writeText(target, args.content);
  } catch (e) {
    return fail(`cannot write ${args.path}: ${(e as Error).message}`);
  }
  const bytes = Buffer.byteLength(args.content);
  const summary = `${target.existing ? 'Replaced' : 'Created'} ${target.rel} (${bytes} bytes)`;
  if ('noDiff' in old) return ok(`${summary}\n${old.noDiff}`);
  const diff = diffSections(target.rel, old.before, args.content);
  const result = ok(`${summary}\n${diff.model}`);
  return diff.display === undefined ? result : { ...result, display: `${summary}\n${diff.display}` };
}

/**
 * write_file's review (permission.ts): the call runs unless the Workspace Tool Policy asks first; then the card shows
 * the diff it would apply, whole, worked out without writing (or, when it cannot be worked out, why).
 */
export function reviewWrite(args: WriteFileArgs, ctx: ToolContext): CallReview {
  const target = locateWrite('write_file', args.path, ctx);
  if (target.ok && target.runsOutside !== null) {
    return protectedWriteReview(target.rel, target.runsOutside, writeSummary(args, ctx));
  }
  return { kind: 'run', askSummary: () => writeSummary(args, ctx) };
}

function writeSummary(args: WriteFileArgs, ctx: ToolContext): string {
  const target = locateWrite('write_file', args.path, ctx);
  if (!target.ok) return `Write ${args.path} (no diff: ${target.error})\n${callSummary('write_file', args)}`;
  const bytes = Buffer.byteLength(args.content);
  const head = `${target.existing ? 'Replace' : 'Create'} ${target.rel} (${bytes} bytes)`;
  const old = oldContent(target);
  if ('noDiff' in old) return `${head}\n${old.noDiff}`;
  return `${head}\n${diffSection(target.rel, old.before, args.content, REQUEST_CAPS)}`;
}

export const writeFileTool: ToolDef<WriteFileArgs> = {
  name: 'write_file',
  description:
    'Create a file of the workspace or replace its whole content. Prefer edit_file to change part of an existing file.',
  parameters: WriteFileArgs,
  readOnly: false,
  needs: ['edit'],
  review: reviewWrite,
  execute: writeFile,
};
