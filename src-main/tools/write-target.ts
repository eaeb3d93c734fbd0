// The checks every writing tool makes before it touches anything: the movement's edit permission (P4.32), the
// sandbox (P4.33), the protected `.maestro/` folder, and the files that run code outside the sandbox (runs-outside.ts),
// which are written only in a call a person approved on its card (the tool's review asks for them, always).
import fs from 'node:fs';
import { writeFileAtomic } from '../workspace/atomic-write';
import { runsOutside } from './runs-outside';
import { isProtected, resolveInWorkspace } from './sandbox';
import type { CallReview, ToolContext } from './types';

export type WriteTarget =
  | {
      ok: true;
      path: string;
      rel: string;
      existing: fs.Stats | null;
      /** Why the file runs code outside the sandbox, or null. */
      runsOutside: string | null;
    }
  | { ok: false; error: string };

/** Where a write would go, checked but for the person's say on files that run code outside the sandbox (for cards). */
export function locateWrite(tool: string, given: string, ctx: ToolContext): WriteTarget {
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
  return { ok: true, path: target.path, rel: target.rel, existing, runsOutside: runsOutside(target.rel) };
}

/** Where a write goes now: a file that runs code outside the sandbox only in a call a person approved. */
export function writeTarget(tool: string, given: string, ctx: ToolContext): WriteTarget {
  const target = locateWrite(tool, given, ctx);
  if (target.ok && target.runsOutside !== null && ctx.approvedByPerson !== true) {
    return {
      ok: false,
      error: `${given} runs code outside the sandbox (${target.runsOutside}); only a person can allow this write, on its approval card`,
    };
  }
  return target;
}

/**
 * The review of a write to a file that runs code outside the sandbox: it asks, always (no policy, grant or Auto
 * Prompter covers it), on a card that says which file and why, above `summary` (the diff).
 */
export function protectedWriteReview(rel: string, reason: string, summary: string): CallReview {
  return {
    kind: 'ask',
    always: true,
    summary: `${rel} runs code outside the sandbox: ${reason}. Approving lets this one change through; each later change asks again.\n${summary}`,
    display: { kind: 'protected_file', path: rel, reason },
  };
}

/** Temp file + rename in the same folder, keeping an existing file's permission bits. */
export function writeText(target: { path: string; existing: fs.Stats | null }, content: string): void {
  writeFileAtomic(target.path, content, target.existing ? target.existing.mode & 0o7777 : 0o644);
}
