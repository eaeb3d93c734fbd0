// Checkpoints: the workspace as it was before each change (at each Send's start, before each step that may change
// files, before a rewind), kept as git objects; what each changed since the previous one; rewind, fork and the
// workspace commit (P2.21) a succeeded job makes. The shapes outside callers rely on are in bridge-api.md.
import { z } from 'zod';

export const CHECKPOINT_KINDS = ['send', 'step', 'rewind'] as const;
export const CheckpointKind = z.enum(CHECKPOINT_KINDS);
export type CheckpointKind = z.infer<typeof CheckpointKind>;

export const FILE_CHANGES = ['added', 'modified', 'deleted', 'renamed'] as const;
export const FileChangeKind = z.enum(FILE_CHANGES);
export type FileChangeKind = z.infer<typeof FileChangeKind>;

/** A file changed between two checkpoints (workspace-relative, `/`-separated); `from`: a renamed file's old path. */
export const CheckpointFile = z.object({
  path: z.string(),
  change: FileChangeKind,
  from: z.string().optional(),
});
export type CheckpointFile = z.infer<typeof CheckpointFile>;

export const SKIP_REASONS = ['too_big', 'lfs', 'filter', 'nested_repository', 'unreadable'] as const;
/** A file or folder a snapshot left out, and why: it is neither saved nor ever overwritten or removed by a rewind. */
export const SkippedPath = z.object({ path: z.string(), reason: z.enum(SKIP_REASONS) });
export type SkippedPath = z.infer<typeof SkippedPath>;

export const Checkpoint = z.object({
  id: z.string(),
  taskId: z.string(),
  jobId: z.string(),
  /** The N of the Send it belongs to (Send #N: the task's Nth UserSend Invoke). */
  send: z.number().int(),
  /** The seq of that Send's Invoke marker (P9.21: the only points a conversation is rewound or forked at). */
  invokeSeq: z.number().int(),
  kind: CheckpointKind,
  createdAt: z.string(),
  /** What changed since the previous checkpoint of the task (every job's), oldest first. */
  files: z.array(CheckpointFile),
  /** What this snapshot left out. */
  skipped: z.array(SkippedPath),
  /** The short hash of the workspace commit the succeeded job made (P2.21), or null. */
  commit: z.string().nullable(),
  /** The tool call a step checkpoint was taken before (its id in the chat); null for the others and for the one at
   * the end of a job run. */
  callId: z.string().nullable(),
  /** The agent's tool call whose run made `files` (show them under it); null when no step of the agent did (the
   * person's edits between Sends, or before a rewind). */
  changedBy: z.string().nullable(),
});
export type Checkpoint = z.infer<typeof Checkpoint>;

export const REWIND_MODES = ['files', 'conversation', 'both'] as const;
export const RewindMode = z.enum(REWIND_MODES);
export type RewindMode = z.infer<typeof RewindMode>;

/**
 * A conversation rewind: the Sends from `send` on (Invokes with seq in [fromSeq, untilSeq)) are folded in the chat
 * and never replayed to the model again; `undone` when the person took it back.
 */
export const TaskRewind = z.object({
  id: z.string(),
  send: z.number().int(),
  fromSeq: z.number().int(),
  untilSeq: z.number().int(),
  createdAt: z.string(),
  undone: z.boolean(),
});
export type TaskRewind = z.infer<typeof TaskRewind>;

/** Whether the task's workspace has checkpoints, and if not why (no git, the home folder, …), said once. */
export const CheckpointState = z.object({
  on: z.boolean(),
  /** `git`: in the workspace repository's objects under refs/maestro/; `plain`: a private repository in the data dir. */
  store: z.enum(['git', 'plain']).nullable(),
  note: z.string().nullable(),
});
export type CheckpointState = z.infer<typeof CheckpointState>;

/** A file of the task's "files changed" view: its change since the task's first checkpoint, with the diff. */
export const TaskFileChange = z.object({
  path: z.string(),
  change: FileChangeKind,
  from: z.string().optional(),
  /** A unified diff against the start of the task; empty for a binary file (`binary`). */
  diff: z.string(),
  binary: z.boolean(),
  added: z.number().int(),
  removed: z.number().int(),
});
export type TaskFileChange = z.infer<typeof TaskFileChange>;

/** The Settings of checkpoints (settings.json's `checkpoints`); every field has a default. */
export const CheckpointSettings = z.strictObject({
  /** Off: no checkpoint is taken (rewind of files and the files-changed view are unavailable). */
  enabled: z.boolean().default(true),
  /** Files bigger than this are left out of snapshots (listed as skipped). */
  maxFileBytes: z
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  /** Checkpoints kept per task (the oldest go first; a Send's checkpoint outlives the step checkpoints). */
  keepPerTask: z.number().int().min(10).default(500),
  /** Checkpoints older than this many days are removed (0: never by age). */
  keepDays: z.number().int().min(0).default(30),
  /** On: a succeeded job commits the files it changed when the workspace is a git repository (P2.21). */
  commitOnSuccess: z.boolean().default(true),
});
export type CheckpointSettings = z.infer<typeof CheckpointSettings>;
