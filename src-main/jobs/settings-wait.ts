// The settings wait (issue 21, point 8): a job does not start while its folder has a settings file no person ever
// accepted (a new folder's `.maestro/policy.json`, `mcp.json`, pieces…), so the file is neither used unreviewed nor
// silently left out. The job parks as `waiting_human` + `settings` before anything of the folder's settings is read
// and before any model request; each file's card is decided with the settings-changes routes, and once none is left
// the job is queued again and starts with what was accepted (a rejected file is gone). A file changed since it was
// accepted does not hold a job: its accepted version applies meanwhile and the task shows the change (prepare-job).
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import { type AcceptedSettings, SETTINGS_FILES, type SettingsChange } from '../workspace/accepted-settings';
import type { PieceRunResult } from './piece-run-result';
import { wakeParked } from './wake';

/** The settings files a job of this workspace applies: an ephemeral workspace has no MCP servers or pieces of its own. */
export function appliesTo(persistent: boolean): (file: string) => boolean {
  return (file) => persistent || file === SETTINGS_FILES.policy || file === SETTINGS_FILES.autoPrompter;
}

/** The settings files of the folder a job applies that are on disk and were never accepted, by file name. */
export function unreviewedSettings(changes: readonly SettingsChange[], persistent: boolean): string[] {
  const applies = appliesTo(persistent);
  return changes.filter((c) => c.accepted === null && c.current !== null && applies(c.file)).map((c) => c.file);
}

/** The park of a job whose folder has unreviewed settings files: it resumes where it would have started. */
export function settingsWaitResult(job: JobRecord, workspacePath: string, files: readonly string[]): PieceRunResult {
  const list = files.map((f) => `- ${f}`).join('\n');
  return {
    kind: 'waiting_human',
    reason: 'settings',
    movement: job.resumeMovement,
    message:
      `Settings files of ${workspacePath} wait to be reviewed before this task starts: accept or reject each one ` +
      `in MAESTRO (a rejected file is removed and not used).\n${list}`,
  };
}

/**
 * Queues again every job parked on `settings` whose folder has no unreviewed file left (CAS: a job cancelled
 * meanwhile stays so); `workspacePath` undefined: the jobs of every folder (at start). The job parked before its
 * engine ran, so its pending Invoke is still there.
 */
export function resumeSettingsWaits(store: Store, accepted: AcceptedSettings, workspacePath?: string): JobRecord[] {
  return store.transact(() =>
    store.jobs.waitingOn('settings').flatMap((job) => {
      const task = store.tasks.get(job.taskId);
      if (!task || (workspacePath !== undefined && task.workspacePath !== workspacePath)) return [];
      const persistent = store.tasks.workspaceKind(task.id) === 'persistent';
      if (unreviewedSettings(accepted.changes(task.workspacePath), persistent).length > 0) return [];
      return [wakeParked(store, job.id, 'settings_reviewed')];
    }),
  );
}
