// The Auto Prompter's rules file, `<workspace>/.maestro/auto-prompter.json`: read (absent → off), checked against the
// shared schema with errors naming the file and the field, and written atomically. The format is in tools/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { type AutoPrompterSettings, AutoPrompterSettings as SettingsSchema } from '../../src-shared/auto-prompter';
import { writeFileAtomic } from '../workspace/atomic-write';

export const AUTO_PROMPTER_FILE = path.join('.maestro', 'auto-prompter.json');

export const autoPrompterFile = (workspacePath: string) => path.join(workspacePath, AUTO_PROMPTER_FILE);

/** A rules file that cannot be used; the message names the file and the field. */
export class AutoPrompterError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = new.target.name;
  }
}

/** Parses a rules file's text; `file` is only used in error messages. */
export function parseAutoPrompter(text: string, file: string): AutoPrompterSettings {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new AutoPrompterError(file, `not valid JSON (${(e as Error).message})`);
  }
  const parsed = SettingsSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new AutoPrompterError(file, issues.join('; '));
  }
  return parsed.data;
}

/** The workspace's rules, or null when it has no rules file; a broken file throws AutoPrompterError. */
export function loadAutoPrompter(workspacePath: string): AutoPrompterSettings | null {
  const file = autoPrompterFile(workspacePath);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AutoPrompterError(file, `cannot be read (${(e as Error).message})`);
  }
  return parseAutoPrompter(text, file);
}

/** Writes the rules (already checked by the contract) as the file a person would, atomically. */
export function saveAutoPrompter(workspacePath: string, settings: AutoPrompterSettings): void {
  writeFileAtomic(autoPrompterFile(workspacePath), `${JSON.stringify(settings, null, 2)}\n`);
}
