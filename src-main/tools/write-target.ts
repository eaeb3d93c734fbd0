// The checks every writing tool makes before it touches anything: the movement's edit permission (P4.32), the
// sandbox (P4.33), and the protected `.maestro/` folder.
import fs from 'node:fs';
import { writeFileAtomic } from '../workspace/atomic-write';
import { isProtected, resolveInWorkspace } from './sandbox';
import type { ToolContext } from './types';

export type WriteTarget =
  | { ok: true; path: string; rel: string; existing: fs.Stats | null }
  | { ok: false; error: string };

export function writeTarget(tool: string, given: string, ctx: ToolContext): WriteTarget {
  if (!ctx.canEdit) {
    return { ok: false, error: `${tool} is not allowed: this movement has no permission to edit files` };
  }
  const target = resolveInWorkspace(ctx.workspacePath, given);
  if (!target.ok) return target;
  if (target.rel === '.') return { ok: false, error: `${given} is the workspace folder itself, not a file` };
  if (isProtected(target.rel)) {
    return {
      ok: false,
      error: `${given} is in .maestro/, the workspace's MAESTRO settings, which only a person edits`,
    };
  }
  let existing: fs.Stats | null = null;
  try {
    existing = fs.statSync(target.path);
  } catch {
    existing = null;
  }
  if (existing?.isDirectory()) return { ok: false, error: `${given} is a folder` };
  if (existing && !existing.isFile()) return { ok: false, error: `${given} is not a regular file` };
  return { ok: true, path: target.path, rel: target.rel, existing };
}

/** Temp file + rename in the same folder, keeping an existing file's permission bits. */
export function writeText(target: { path: string; existing: fs.Stats | null }, content: string): void {
  writeFileAtomic(target.path, content, target.existing ? target.existing.mode & 0o7777 : 0o644);
}
