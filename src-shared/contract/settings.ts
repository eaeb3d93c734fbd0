// Settings: the default workspace's Auto Prompter rules, a workspace's Tool Policy, and the app's own settings file.
import { z } from 'zod';
import { AutoPrompterSettings, AutoPrompterView } from '../auto-prompter';
import { AppSettings, SettingsView, StorageUsage } from '../settings';
import { ToolPolicyView } from '../tool-policy';
import { empty, op } from './operation';

export const settingsOperations = {
  /** The default workspace's Auto Prompter rules (`.maestro/auto-prompter.json`), for Settings. */
  getAutoPrompter: op({
    method: 'GET',
    path: '/auto-prompter',
    status: 200,
    input: empty,
    output: AutoPrompterView,
  }),
  /** Replaces the default workspace's Auto Prompter rules; jobs already started keep theirs (P8.01). */
  saveAutoPrompter: op({
    method: 'POST',
    path: '/auto-prompter',
    status: 200,
    input: AutoPrompterSettings,
    output: AutoPrompterView,
  }),
  /**
   * A workspace's Tool Policy (`.maestro/policy.json`) for Settings. Only a space's folder or the host's default
   * workspace (404 otherwise), given as the absolute path listSpaces / getSettings answer, URL-encoded.
   */
  getToolPolicy: op({
    method: 'GET',
    path: '/tool-policy/:workspacePath',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096) }).strict(),
    output: ToolPolicyView,
  }),
  /**
   * Replaces a workspace's Tool Policy. `policy` is checked in main by the file's own schema (policy-schema.ts), so a
   * bad one is a 400 naming the field (`policy.tools.deny.0`) and the file stays as it was.
   */
  saveToolPolicy: op({
    method: 'POST',
    path: '/tool-policy',
    status: 200,
    input: z.object({ workspacePath: z.string().min(1).max(4096), policy: z.unknown() }).strict(),
    output: ToolPolicyView,
  }),
  /** The app's settings (`<dataDir>/settings.json`: OS notifications), the data dir and the default workspace. */
  getSettings: op({
    method: 'GET',
    path: '/settings',
    status: 200,
    input: empty,
    output: SettingsView,
  }),
  saveSettings: op({
    method: 'POST',
    path: '/settings',
    status: 200,
    input: AppSettings,
    output: SettingsView,
  }),
  /** What the data dir takes, by part, in bytes (`free`: pages of the database file that hold nothing). */
  getStorageUsage: op({
    method: 'GET',
    path: '/storage',
    status: 200,
    input: empty,
    output: StorageUsage,
  }),
  /** Applies the retention setting now, gives freed pages back and truncates the WAL; the usage before and after. */
  cleanUpStorage: op({
    method: 'POST',
    path: '/storage/clean-up',
    status: 200,
    input: empty,
    output: z.object({
      before: StorageUsage,
      after: StorageUsage,
      tasks: z.number().int(),
      events: z.number().int(),
    }),
  }),
};
