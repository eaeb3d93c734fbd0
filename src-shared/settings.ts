// The app's own settings, kept in `<dataDir>/settings.json`: which OS notifications are shown and whether they make
// a sound. One schema for the file and the contract; every field has a default, so an older file still loads.
import { z } from 'zod';
import { CheckpointSettings } from './checkpoints';
import { WAIT_REASONS } from './entities';
import { LessonSettings } from './lessons';

/** The notices the desktop shell can show: every wait for the person, a failure, and the two quiet terminal states. */
export const NOTICE_KINDS = [...WAIT_REASONS, 'failed', 'succeeded', 'cancelled'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

const on = z.boolean().default(true);

export const NotificationKinds = z.strictObject({
  ask: on,
  tool_request: on,
  package_request: on,
  mcp_auth_required: on,
  browser: on,
  settings: on,
  failed: on,
  succeeded: on,
  cancelled: on,
});

export const NotificationSettings = z.strictObject({
  /** Off: no OS notification at all (the in-app Notification Center still lists what waits). */
  os: on,
  /** Off: every OS notification is silent. */
  sound: on,
  kinds: NotificationKinds.default(NotificationKinds.parse({})),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/**
 * How long a finished task keeps its activity in full. Past it, what the log holds twice goes (each job's earlier
 * states, earlier title changes, the comments' copies); the chat, the last state of each job and the rest stay.
 */
export const RetentionSettings = z.strictObject({
  /** Days after a task's last job ended; 0 keeps everything. */
  activityDays: z.number().int().min(0).max(3650).default(30),
});
export type RetentionSettings = z.infer<typeof RetentionSettings>;

/** A parked job's MCP servers, kept running for its resume: for how long at most, and for how many jobs at once. */
export const McpKeepSettings = z.strictObject({
  /** 0: never kept (every resume starts its servers again). */
  keepIdleMinutes: z
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(10),
  keepSessions: z.number().int().min(0).max(100).default(8),
});

export const AppSettings = z.strictObject({
  notifications: NotificationSettings.default(NotificationSettings.parse({})),
  checkpoints: CheckpointSettings.default(CheckpointSettings.parse({})),
  retention: RetentionSettings.default(RetentionSettings.parse({})),
  mcpSessions: McpKeepSettings.default(McpKeepSettings.parse({})),
  /** When Reflection runs and how many approved lessons a job's instruction gets (P2.08). */
  lessons: LessonSettings.default(LessonSettings.parse({})),
});
export type AppSettings = z.infer<typeof AppSettings>;

/** No file (or a broken one): everything on. */
export const DEFAULT_SETTINGS: AppSettings = AppSettings.parse({});

/** What the data dir takes, in bytes: the database file, its WAL, the runs' transcripts, the checkpoints. */
export const StorageUsage = z.object({
  dataDir: z.string(),
  database: z.number().int(),
  wal: z.number().int(),
  /** Pages of the database file that hold nothing (given back at the next clean-up). */
  free: z.number().int(),
  runs: z.number().int(),
  checkpoints: z.number().int(),
  total: z.number().int(),
  tasks: z.number().int(),
});
export type StorageUsage = z.infer<typeof StorageUsage>;

/** What Settings reads and gets back after a save. */
export const SettingsView = z.object({
  settings: AppSettings,
  file: z.string(),
  /** Why the file cannot be used (naming the file and the field; the defaults apply meanwhile), or null. */
  error: z.string().nullable(),
  /** Where MAESTRO keeps its DB, profiles and runs: the user's own machine, shown so they can find it. */
  dataDir: z.string(),
  /** The host's default workspace folder (its tool policy can be edited before it has a space), or null. */
  defaultWorkspace: z.string().nullable(),
});
export type SettingsView = z.infer<typeof SettingsView>;
