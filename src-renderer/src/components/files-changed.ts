// What a job changed in the workspace, as its "Files changed" block lists it: each file its steps wrote or edited
// successfully (write_file, edit_file — a sub-agent's too), once, in the order first changed, with the lines added
// and removed over all its changes and each change's diff (the whole one when the tool kept it, see
// ToolCallResult.display). Only the steps given are read: a job whose earlier steps are not loaded is counted from
// what is.
import type { ChatStep, StepToolCall } from '../../../src-shared/entities';
import { parseDiff } from './diff-lines';

/** The tools whose successful calls change a file; their result is a summary line, then the diff. */
const WRITING_TOOLS: readonly string[] = ['write_file', 'edit_file'];

export interface FileChange {
  callId: string;
  tool: string;
  /** The change's summary line, as the tool wrote it ("Edited a.ts: replaced 1 occurrence"). */
  summary: string;
  /** Its diff, or why there is none ("(no diff: binary content)"). */
  diff: string;
  added: number;
  removed: number;
}

export interface ChangedFile {
  /** Workspace-relative, as the diff names it (else as the call gave it). */
  path: string;
  added: number;
  removed: number;
  changes: FileChange[];
}

function pathArg(call: StepToolCall): string | null {
  try {
    const args: unknown = JSON.parse(call.arguments);
    const path = (args as { path?: unknown } | null)?.path;
    return typeof path === 'string' && path !== '' ? path : null;
  } catch {
    return null;
  }
}

/** One successful write or edit as a change of a file; null for any other call. */
function changeOf(call: StepToolCall): { path: string; change: FileChange } | null {
  if (!WRITING_TOOLS.includes(call.name) || !call.result?.ok) return null;
  const [summary = '', ...rest] = (call.result.display ?? call.result.content).split('\n');
  const diff = rest.join('\n');
  const parsed = parseDiff(diff);
  const path = parsed?.file ?? pathArg(call);
  if (path === null) return null;
  return {
    path,
    change: {
      callId: call.id,
      tool: call.name,
      summary,
      diff,
      added: parsed?.added ?? 0,
      removed: parsed?.removed ?? 0,
    },
  };
}

/** The files `steps` (one job's, oldest first) changed, in the order first changed; empty when none. */
export function filesChanged(steps: readonly ChatStep[]): ChangedFile[] {
  const files = new Map<string, ChangedFile>();
  for (const step of steps) {
    for (const call of step.toolCalls) {
      const found = changeOf(call);
      if (!found) continue;
      const file = files.get(found.path) ?? { path: found.path, added: 0, removed: 0, changes: [] };
      file.added += found.change.added;
      file.removed += found.change.removed;
      file.changes.push(found.change);
      files.set(found.path, file);
    }
  }
  return [...files.values()];
}
