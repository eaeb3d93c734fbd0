// Settings files the agent can write (`.maestro/policy.json`, `mcp.json`, `auto-prompter.json`, `agents.json`,
// `pieces/*.yaml`) that changed outside MAESTRO: listed per workspace with the change as a diff, and accepted or
// rejected by a person. Until then the accepted version (or the safe default) stays in force.
import { z } from 'zod';
import { op } from './operation';

const WorkspacePath = z.string().min(1).max(4096);
/** A settings file relative to its workspace, `/`-separated; main checks it is one of the settings files. */
const SettingsFileName = z.string().min(1).max(300);

export const SettingsChangeView = z.object({
  workspacePath: z.string(),
  file: z.string(),
  kind: z.enum(['policy', 'mcp', 'auto_prompter', 'agents', 'piece']),
  /** Whether a version was ever accepted; false: the safe default is in force. */
  hasAccepted: z.boolean(),
  /** SHA-256 of the file now, which accepting must name; null: the file was deleted. */
  currentSha256: z.string().nullable(),
  /** The change as a unified diff, accepted → current. */
  diff: z.string(),
});
export type SettingsChangeView = z.infer<typeof SettingsChangeView>;

const Changes = z.object({ changes: z.array(SettingsChangeView) });
const CurrentSha256 = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex')
  .nullable();

export const settingsChangeOperations = {
  /** A workspace's settings files that are not the accepted version (a space's, the default one, or a task's). */
  listSettingsChanges: op({
    method: 'GET',
    path: '/settings-changes/:workspacePath',
    status: 200,
    input: z.object({ workspacePath: WorkspacePath }).strict(),
    output: Changes,
  }),
  /**
   * Accepts the file as it is now: it applies from the next job start. `currentSha256` must be the one listed (409
   * when the file changed again since), so a person accepts only what they saw.
   */
  acceptSettingsChange: op({
    method: 'POST',
    path: '/settings-changes/:workspacePath/accept',
    status: 200,
    input: z
      .object({
        workspacePath: WorkspacePath,
        file: SettingsFileName,
        currentSha256: CurrentSha256,
      })
      .strict(),
    output: Changes,
  }),
  /**
   * Accepts the files a person saw listed, in one step (a TAKT workspace has hundreds). Each is accepted only when it
   * still has the `currentSha256` listed; those that changed since are left pending and named in `notAccepted`, and
   * `changes` lists them again as they are now.
   */
  acceptAllSettingsChanges: op({
    method: 'POST',
    path: '/settings-changes/:workspacePath/accept-all',
    status: 200,
    input: z
      .object({
        workspacePath: WorkspacePath,
        files: z
          .array(z.object({ file: SettingsFileName, currentSha256: CurrentSha256 }).strict())
          .min(1)
          .max(5000),
      })
      .strict(),
    output: Changes.extend({
      /** The files accepted now. */
      accepted: z.array(z.string()),
      /** The listed files left pending because they changed since they were listed. */
      notAccepted: z.array(z.string()),
    }),
  }),
  /** Rejects the change: the file is restored to the accepted version, or removed when none was accepted. */
  rejectSettingsChange: op({
    method: 'POST',
    path: '/settings-changes/:workspacePath/reject',
    status: 200,
    input: z.object({ workspacePath: WorkspacePath, file: SettingsFileName }).strict(),
    output: Changes,
  }),
};
