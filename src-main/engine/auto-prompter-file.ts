// The Auto Prompter's rules file, `<workspace>/.maestro/auto-prompter.json`: read (absent → off), checked against the
// shared schema with errors naming the file and the field, and written atomically. The format is in tools/README.md.
import path from 'node:path';
import { type AutoPrompterSettings, AutoPrompterSettings as SettingsSchema } from '../../src-shared/auto-prompter';
import { writeFileAtomic } from '../workspace/atomic-write';
import { parseConfigJson, readConfigText } from '../workspace/json-file';

export const AUTO_PROMPTER_FILE = path.join('.maestro', 'auto-prompter.json');

export const autoPrompterFile = (workspacePath: string) => path.join(workspacePath, AUTO_PROMPTER_FILE);

/** A rules file that cannot be used: the one ConfigFileError, by the name its callers catch. */

/** Parses a rules file's text; `file` is only used in error messages. */
export const parseAutoPrompter = (text: string, file: string): AutoPrompterSettings =>
  parseConfigJson(text, file, SettingsSchema);

/** The workspace's rules, or null when it has no rules file; a broken file throws ConfigFileError. */
export function loadAutoPrompter(workspacePath: string): AutoPrompterSettings | null {
  const file = autoPrompterFile(workspacePath);
  const text = readConfigText(file);
  return text === null ? null : parseAutoPrompter(text, file);
}

/** Writes the rules (already checked by the contract) as the file a person would, atomically. */
export function saveAutoPrompter(workspacePath: string, settings: AutoPrompterSettings): void {
  writeFileAtomic(autoPrompterFile(workspacePath), `${JSON.stringify(settings, null, 2)}\n`);
}
