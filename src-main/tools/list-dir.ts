// list_dir { path }: a folder's entries, sorted, folders with a trailing `/`.
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { fail, ok } from './outcome';
import { resolveInWorkspace } from './sandbox';
import type { ToolDef } from './types';

export const LIST_MAX_ENTRIES = 1000;

export const ListDirArgs = z.strictObject({
  path: z.string().describe('Folder path, relative to the workspace folder; "." is the workspace folder itself.'),
});
export type ListDirArgs = z.infer<typeof ListDirArgs>;

async function isFolder(dir: string, entry: Dirent): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return (await fs.stat(path.join(dir, entry.name))).isDirectory();
  } catch {
    return false;
  }
}

export async function listDir(args: ListDirArgs, workspacePath: string) {
  const target = resolveInWorkspace(workspacePath, args.path);
  if (!target.ok) return fail(target.error);
  let entries: Dirent[];
  try {
    entries = await fs.readdir(target.path, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return fail(`${args.path} is a file, not a folder; use read_file`);
    if (code === 'ENOENT') return fail(`${args.path} does not exist`);
    return fail(`cannot list ${args.path}: ${(e as Error).message}`);
  }
  if (entries.length === 0) return ok(`(${args.path} is empty)`);
  const names = await Promise.all(entries.map(async (e) => ((await isFolder(target.path, e)) ? `${e.name}/` : e.name)));
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const shown = names.slice(0, LIST_MAX_ENTRIES);
  if (names.length > shown.length) {
    shown.push(`… ${names.length - shown.length} more entries not shown; use glob to narrow down`);
  }
  return ok(shown.join('\n'));
}

export const listDirTool: ToolDef<ListDirArgs> = {
  name: 'list_dir',
  description: 'List a folder of the workspace. Entries are sorted by name; folders end with `/`.',
  parameters: ListDirArgs,
  readOnly: true,
  execute: (args, ctx) => listDir(args, ctx.workspacePath),
};
