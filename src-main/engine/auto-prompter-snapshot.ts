// The Policy Snapshot of one job (spec §4.1, P8.01): the workspace's Auto Prompter rules as they were when the job
// started, and which one-time approvals it has used. Kept in `runs/{taskId}/auto-prompter/{jobId}.json` (the data
// dir, out of the agent's reach), so the same job coming back — after an approval, a retry or a restart — uses the
// same rules and cannot use an approval twice, whatever the workspace's file says by then.
import path from 'node:path';
import { z } from 'zod';
import { AUTO_PROMPTER_OFF, AutoPrompterSettings } from '../../src-shared/auto-prompter';
import { onDisk, type SettingsText } from '../workspace/accepted-settings';
import { writeFileAtomic } from '../workspace/atomic-write';
import { ConfigFileError, readJsonFile } from '../workspace/json-file';
import { loadAutoPrompter } from './auto-prompter-file';

const SnapshotFile = z.strictObject({
  version: z.literal(1),
  jobId: z.string(),
  takenAt: z.string(),
  /** Off (no file, or `enabled: false`) is stored as AUTO_PROMPTER_OFF: the file's rules are not kept. */
  settings: AutoPrompterSettings,
  /** Indexes of approve_once rules this job has used. */
  usedApprovals: z.array(z.number().int().min(0)),
});
export type PolicySnapshot = z.infer<typeof SnapshotFile>;

export const snapshotFile = (runtimeDir: string, jobId: string) =>
  path.join(runtimeDir, 'auto-prompter', `${jobId}.json`);

/**
 * The job's snapshot: the stored one when the job has started before, else taken now from the workspace's file (its
 * text as `read` gives it: the Worker and the engine take it from the accepted version) and stored when it is on.
 * `runtimeDir` undefined (no data dir): taken and kept in memory only. Throws ConfigFileError for a broken rules file
 * or snapshot.
 */
export function openSnapshot(
  workspacePath: string,
  runtimeDir: string | undefined,
  jobId: string,
  read: SettingsText = onDisk,
  now: () => Date = () => new Date(),
): PolicySnapshot {
  const file = runtimeDir === undefined ? null : snapshotFile(runtimeDir, jobId);
  if (file !== null) {
    const stored = readSnapshot(file);
    if (stored) return stored;
  }
  const settings = loadAutoPrompter(workspacePath, read);
  const snapshot: PolicySnapshot = {
    version: 1,
    jobId,
    takenAt: now().toISOString(),
    settings: settings?.enabled ? settings : AUTO_PROMPTER_OFF,
    usedApprovals: [],
  };
  // Only rules in force are stored (and fsynced): an off snapshot is taken again, from the accepted rules, at each
  // start of the job, which keeps a job's start free of a write that fixes nothing (issue 28).
  if (file !== null && snapshot.settings.enabled) writeSnapshot(file, snapshot);
  return snapshot;
}

/** Stores the snapshot (after a one-time approval is used). */
export function saveSnapshot(runtimeDir: string | undefined, snapshot: PolicySnapshot): void {
  if (runtimeDir !== undefined) writeSnapshot(snapshotFile(runtimeDir, snapshot.jobId), snapshot);
}

function readSnapshot(file: string): PolicySnapshot | null {
  const read = readJsonFile(file, SnapshotFile);
  if (read.kind === 'absent') return null;
  if (read.kind === 'broken') throw new ConfigFileError(file, `the job's Policy Snapshot ${read.problem}`);
  return read.value;
}

function writeSnapshot(file: string, snapshot: PolicySnapshot): void {
  writeFileAtomic(file, `${JSON.stringify(snapshot, null, 2)}\n`);
}
