// The settings changes a person reviews (architecture rule 9): a workspace's settings files that are not the version
// a person accepted, each with its diff, and accepting (the file as shown applies from the next job start) or
// rejecting (the file goes back to the accepted version, or away when none was). Only folders MAESTRO works in: the
// default workspace, a space's folder or a task's, so no other folder is read or written. A job parked until its
// folder's never-accepted files are decided (jobs/settings-wait.ts) is queued again as soon as none is left.
import fs from 'node:fs';
import path from 'node:path';
import type { OpOutput, OpParsedInput, SettingsChangeView } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { resumeSettingsWaits } from '../jobs/settings-wait';
import { invalid, notFound } from '../tasks/errors';
import { unifiedDiff } from '../tools/diff';
import { isSettingsFile, onDisk, SETTINGS_FILES, type SettingsChange, sha256 } from '../workspace/accepted-settings';
import { writeFileAtomic } from '../workspace/atomic-write';
import { ConfigFileError } from '../workspace/json-file';
import type { AppContext } from './context';

type Changes = OpOutput<'listSettingsChanges'>;

export function knownWorkspace(ctx: AppContext, workspacePath: string): string {
  const known =
    workspacePath === ctx.defaultWorkspace ||
    ctx.store.spaces.byFolder(workspacePath) !== undefined ||
    ctx.store.tasks.usedWorkspace(workspacePath);
  if (!known) throw notFound('workspace', `${workspacePath} (not a folder MAESTRO works in)`);
  if (!fs.statSync(workspacePath, { throwIfNoEntry: false })?.isDirectory()) {
    throw notFound('workspace folder', `${workspacePath} (it was moved or deleted)`);
  }
  return workspacePath;
}

const kindOf = (file: string): SettingsChangeView['kind'] =>
  file === SETTINGS_FILES.policy
    ? 'policy'
    : file === SETTINGS_FILES.mcp
      ? 'mcp'
      : file === SETTINGS_FILES.autoPrompter
        ? 'auto_prompter'
        : file === SETTINGS_FILES.agents
          ? 'agents'
          : 'piece';

const toView = (workspacePath: string, change: SettingsChange): SettingsChangeView => ({
  workspacePath,
  file: change.file,
  kind: kindOf(change.file),
  hasAccepted: change.accepted !== null,
  currentSha256: change.current === null ? null : sha256(change.current),
  diff: unifiedDiff(change.file, change.accepted, change.current ?? ''),
});

/**
 * The folder's changes left; first, its jobs parked on settings go on when none of their files waits any more (also
 * when a person removed the files by hand: listing them is where the task view looks again).
 */
function changesOf(ctx: AppContext, workspacePath: string): Changes {
  resumeSettingsWaits(ctx.store, ctx.accepted, workspacePath);
  return { changes: ctx.accepted.changes(workspacePath).map((c) => toView(workspacePath, c)) };
}

function settingsFile(file: string): string {
  if (!isSettingsFile(file)) throw invalid('file', `${file} is not a settings file of a workspace`);
  return file;
}

/** A data-dir or workspace file that cannot be read or written is the caller's to fix: a 409 naming it. */
export function conflictOnFileError<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ConfigFileError) throw new MaestroError('conflict', error.message);
    throw error;
  }
}

export function listSettingsChanges(ctx: AppContext, input: OpParsedInput<'listSettingsChanges'>): Changes {
  const workspacePath = knownWorkspace(ctx, input.workspacePath);
  return conflictOnFileError(() => changesOf(ctx, workspacePath));
}

export function acceptSettingsChange(ctx: AppContext, input: OpParsedInput<'acceptSettingsChange'>): Changes {
  const workspacePath = knownWorkspace(ctx, input.workspacePath);
  const file = settingsFile(input.file);
  return conflictOnFileError(() => {
    const current = onDisk(workspacePath, file);
    if ((current === null ? null : sha256(current)) !== input.currentSha256) {
      throw new MaestroError(
        'conflict',
        `${file} in ${workspacePath} changed again since it was shown; review the change as it is now`,
      );
    }
    ctx.accepted.record(workspacePath, file, current);
    return changesOf(ctx, workspacePath);
  });
}

/**
 * Accepts the listed files in one write: each whose content still has the hash the person saw. A file changed since
 * is left pending (and named), so it is shown again as it is now rather than accepted unseen.
 */
export function acceptAllSettingsChanges(
  ctx: AppContext,
  input: OpParsedInput<'acceptAllSettingsChanges'>,
): OpOutput<'acceptAllSettingsChanges'> {
  const workspacePath = knownWorkspace(ctx, input.workspacePath);
  const listed = new Map<string, string | null>();
  for (const { file, currentSha256 } of input.files) {
    settingsFile(file);
    if (listed.has(file)) throw invalid('files', `${file} is listed twice`);
    listed.set(file, currentSha256);
  }
  return conflictOnFileError(() => {
    const decided: { file: string; content: string | null }[] = [];
    const notAccepted: string[] = [];
    for (const [file, seen] of listed) {
      const current = onDisk(workspacePath, file);
      if ((current === null ? null : sha256(current)) === seen) decided.push({ file, content: current });
      else notAccepted.push(file);
    }
    if (decided.length > 0) ctx.accepted.recordMany(workspacePath, decided);
    return { ...changesOf(ctx, workspacePath), accepted: decided.map((d) => d.file), notAccepted };
  });
}

export function rejectSettingsChange(ctx: AppContext, input: OpParsedInput<'rejectSettingsChange'>): Changes {
  const workspacePath = knownWorkspace(ctx, input.workspacePath);
  const file = settingsFile(input.file);
  return conflictOnFileError(() => {
    const accepted = ctx.accepted.accepted(workspacePath, file);
    const target = path.join(workspacePath, file);
    try {
      if (accepted === null) fs.rmSync(target, { force: true });
      else writeFileAtomic(target, accepted);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'error';
      throw new MaestroError('conflict', `${target} cannot be restored to the accepted version (${code})`);
    }
    return changesOf(ctx, workspacePath);
  });
}

/**
 * A settings file written by a person in Settings: recorded accepted and written in one step, so it applies without a
 * card. Recorded first, and put back when the write fails, so the accepted version is never one nobody wrote.
 */
export function acceptAndWrite(
  ctx: AppContext,
  workspacePath: string,
  file: string,
  text: string,
  write: () => void,
): void {
  const before = ctx.accepted.accepted(workspacePath, file);
  conflictOnFileError(() => ctx.accepted.record(workspacePath, file, text));
  try {
    write();
  } catch (error) {
    ctx.accepted.record(workspacePath, file, before);
    throw error;
  }
  conflictOnFileError(() => resumeSettingsWaits(ctx.store, ctx.accepted, workspacePath));
}
