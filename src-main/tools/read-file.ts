// read_file { path, offset?, limit? }: a text file's lines numbered like `cat -n`, from a 1-based line offset.
import fs from 'node:fs/promises';
import { z } from 'zod';
import { fail, ok } from './outcome';
import { resolveInWorkspace } from './sandbox';
import { capLine, looksBinary, splitLines } from './text';
import type { ToolDef } from './types';

export const READ_DEFAULT_LIMIT = 2000;
export const READ_MAX_LINE_CHARS = 2000;
export const READ_MAX_OUTPUT_CHARS = 60_000;
export const READ_MAX_FILE_BYTES = 20 * 1024 * 1024;

export const ReadFileArgs = z.strictObject({
  path: z.string().min(1).describe('File path, relative to the workspace folder.'),
  offset: z.number().int().min(1).optional().describe('First line to show, counting from 1. Default 1.'),
  limit: z.number().int().min(1).optional().describe(`How many lines to show. Default ${READ_DEFAULT_LIMIT}.`),
});
export type ReadFileArgs = z.infer<typeof ReadFileArgs>;

const numbered = (n: number, line: string) => `${String(n).padStart(6)}\t${capLine(line, READ_MAX_LINE_CHARS)}`;

export async function readFile(args: ReadFileArgs, workspacePath: string) {
  const target = resolveInWorkspace(workspacePath, args.path);
  if (!target.ok) return fail(target.error);
  let stat: Awaited<ReturnType<typeof fs.stat>>;
  try {
    stat = await fs.stat(target.path);
  } catch {
    return fail(`${args.path} does not exist`);
  }
  if (stat.isDirectory()) return fail(`${args.path} is a folder; use list_dir`);
  if (!stat.isFile()) return fail(`${args.path} is not a regular file`);
  if (stat.size > READ_MAX_FILE_BYTES) {
    return fail(`${args.path} is too large to read (${stat.size} bytes); use grep to find the lines you need`);
  }
  const bytes = await fs.readFile(target.path);
  if (looksBinary(bytes)) return fail(`${args.path} is a binary file; read_file reads text only`);
  const lines = splitLines(bytes.toString('utf8'));
  if (lines.length === 0) return ok(`(${args.path} is empty)`);
  const offset = args.offset ?? 1;
  if (offset > lines.length) {
    return fail(`offset ${offset} is past the end of ${args.path}, which has ${lines.length} lines`);
  }
  const last = Math.min(lines.length, offset - 1 + (args.limit ?? READ_DEFAULT_LIMIT));
  const out: string[] = [];
  let size = 0;
  let shownTo = offset - 1;
  for (let n = offset; n <= last; n++) {
    const row = numbered(n, lines[n - 1] ?? '');
    if (size + row.length + 1 > READ_MAX_OUTPUT_CHARS && out.length > 0) break;
    out.push(row);
    size += row.length + 1;
    shownTo = n;
  }
  if (shownTo < lines.length) {
    const why = shownTo < last ? ` (output capped at ${READ_MAX_OUTPUT_CHARS} characters)` : '';
    out.push(
      `… showing lines ${offset}–${shownTo} of ${lines.length}${why}; call read_file with offset ${shownTo + 1} to read on`,
    );
  }
  return ok(out.join('\n'));
}

export const readFileTool: ToolDef<ReadFileArgs> = {
  name: 'read_file',
  description:
    'Read a text file of the workspace. Lines are numbered like `cat -n`; use offset and limit to read a long file in parts.',
  parameters: ReadFileArgs,
  readOnly: true,
  execute: (args, ctx) => readFile(args, ctx.workspacePath),
};
