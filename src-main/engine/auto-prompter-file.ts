// The Auto Prompter's rules file, `<workspace>/.maestro/auto-prompter.json`: read (absent → off), checked against the
// shared schema with errors naming the file and the field, and written atomically. The format is in tools/README.md.
import path from 'node:path';
import { type AutoPrompterSettings, AutoPrompterSettings as SettingsSchema } from '../../src-shared/auto-prompter';
import { onDisk, SETTINGS_FILES, type SettingsText } from '../workspace/accepted-settings';
import { writeFileAtomic } from '../workspace/atomic-write';
import { parseConfigJson } from '../workspace/json-file';

export const AUTO_PROMPTER_FILE = SETTINGS_FILES.autoPrompter;

export const autoPrompterFile = (workspacePath: string) => path.join(workspacePath, AUTO_PROMPTER_FILE);

/** A rules file that cannot be used: the one ConfigFileError, by the name its callers catch. */

/** Parses a rules file's text; `file` is only used in error messages. */
export const parseAutoPrompter = (text: string, file: string): AutoPrompterSettings =>
  parseConfigJson(text, file, SettingsSchema);

/**
 * The workspace's rules, or null when it has no rules file; a broken file throws ConfigFileError. `read` gives the
 * file's text: a job's Policy Snapshot is taken from the accepted version.
 */
export function loadAutoPrompter(workspacePath: string, read: SettingsText = onDisk): AutoPrompterSettings | null {
  const file = autoPrompterFile(workspacePath);
  const text = read(workspacePath, AUTO_PROMPTER_FILE);
  return text === null ? null : parseAutoPrompter(text, file);
}

/** The rules as the file a person would write. */
export const autoPrompterText = (settings: AutoPrompterSettings) => `${JSON.stringify(settings, null, 2)}\n`;

/** Writes the rules (already checked by the contract), atomically. */
export function saveAutoPrompter(workspacePath: string, settings: AutoPrompterSettings): void {
  writeFileAtomic(autoPrompterFile(workspacePath), autoPrompterText(settings));
}
