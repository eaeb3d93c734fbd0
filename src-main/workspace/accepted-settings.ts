// The settings files the agent can write — a workspace's `.maestro/policy.json`, `mcp.json`, `auto-prompter.json`,
// `agents.json`, `pieces/*.yaml` and the TAKT files those pieces read (facets, step fragments, presets) — apply only
// in a version a person accepted (architecture rule 9). The accepted versions are kept in
// `<dataDir>/accepted-settings.json` (0600, in the 0700 data dir, out of every command's reach), content and hash per
// workspace and file, so the accepted version still applies after the file in the workspace was changed. The file is
// read on every call (it is small): every holder in the process sees the same accepted versions. A person's switching
// an MCP server on or off in Settings is kept here too: out of the agent's reach, and accepted as it is made.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { byVersion, ConfigFileError, readConfigText, readJsonFile, type Versioned, writeJsonFile } from './json-file';

/** The settings files, as paths relative to the workspace folder with `/` between the parts. */
export const SETTINGS_FILES = {
  policy: '.maestro/policy.json',
  mcp: '.maestro/mcp.json',
  autoPrompter: '.maestro/auto-prompter.json',
  agents: '.maestro/agents.json',
} as const;
export const PIECES_DIR = '.maestro/pieces';

/**
 * The `.maestro/` folders of a TAKT piece's companion files (engine/pieces/takt-files.ts), with the extension their
 * files have and how deep they sit: `facets/<kind>/<name>.md`, `<kind>/<name>.md` (February 2026's layout),
 * `steps/<name>.yaml`, `provider-options/<name>.yaml`, `facet-pools/<name>.yaml`, `companions/<name>.yaml`,
 * `schemas/<name>.json` (TAKT's main layout: pools of facets, companion reviewers, structured results' schemas).
 */
const TAKT_FOLDERS: Record<string, { ext: RegExp; depth: number }> = {
  facets: { ext: /\.md$/, depth: 3 },
  personas: { ext: /\.md$/, depth: 2 },
  policies: { ext: /\.md$/, depth: 2 },
  knowledge: { ext: /\.md$/, depth: 2 },
  instructions: { ext: /\.md$/, depth: 2 },
  'output-contracts': { ext: /\.md$/, depth: 2 },
  steps: { ext: /\.ya?ml$/, depth: 2 },
  'provider-options': { ext: /\.ya?ml$/, depth: 2 },
  'facet-pools': { ext: /\.ya?ml$/, depth: 2 },
  companions: { ext: /\.ya?ml$/, depth: 2 },
  schemas: { ext: /\.json$/, depth: 2 },
  // Workflow-wide rules (all_steps.rules) beside the workflows: pieces/rules/<name>.md.
  'pieces/rules': { ext: /\.md$/, depth: 3 },
};

/** A settings file's name as the contract gives it: one of SETTINGS_FILES, a piece file, or a TAKT companion file. */
export function isSettingsFile(rel: string): boolean {
  if (Object.values(SETTINGS_FILES).includes(rel as never)) return true;
  if (rel.includes(String.fromCharCode(0)) || rel.includes('\\')) return false;
  const name = rel.startsWith(`${PIECES_DIR}/`) ? rel.slice(PIECES_DIR.length + 1) : '';
  // One file directly in the folder: no separator, so no name reaches outside it.
  if (/\.ya?ml$/.test(name) && !name.includes('/')) return true;
  const parts = rel.startsWith('.maestro/') ? rel.slice('.maestro/'.length).split('/') : [];
  const folder = TAKT_FOLDERS[parts[0] === 'pieces' ? `pieces/${parts[1]}` : (parts[0] ?? '')];
  return (
    folder !== undefined &&
    parts.length === folder.depth &&
    folder.ext.test(rel) &&
    parts.every((p) => p !== '' && p !== '.' && p !== '..' && !p.startsWith('.'))
  );
}

/**
 * A workflow file: a `*.yaml`/`*.yml` directly in PIECES_DIR. The files below it (`pieces/rules/*.md`, …) are what
 * workflows read, never workflows themselves.
 */
export function isPieceWorkflowFile(rel: string): boolean {
  const name = rel.startsWith(`${PIECES_DIR}/`) ? rel.slice(PIECES_DIR.length + 1) : '';
  return /\.ya?ml$/.test(name) && !name.includes('/') && isSettingsFile(rel);
}

export const ACCEPTED_SETTINGS_FILE = 'accepted-settings.json';

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const Version = z.strictObject({ sha256: z.string(), content: z.string(), acceptedAt: z.string() });
const AcceptedFile = z.strictObject({
  version: z.literal(1),
  /** By workspace folder, then by file (relative, `/`-separated). */
  workspaces: z.record(z.string(), z.record(z.string(), Version)),
  /** By workspace folder, then by MCP server name: turned on or off by a person in Settings (wins over the file). */
  mcpSwitches: z.record(z.string(), z.record(z.string(), z.boolean())).optional(),
});
type AcceptedFile = z.infer<typeof AcceptedFile>;

/** The text of a workspace's settings file, for a loader: on disk, or the version in force. */
export type SettingsText = (workspacePath: string, rel: string) => string | null;

/** The file as it is in the workspace (Settings views, tests): null when there is none. */
export const onDisk: SettingsText = (workspacePath, rel) => readConfigText(path.join(workspacePath, rel));

/** A settings file whose content is not the accepted version (or that exists and was never accepted). */
export interface SettingsChange {
  file: string;
  /** The accepted version; null: none was ever accepted (the safe default applies). */
  accepted: string | null;
  /** The file now; null: it was deleted. */
  current: string | null;
}

export class AcceptedSettings {
  readonly file: string;
  /** The file as last read, by its version on disk: every job start asks, and it only changes when a person decides. */
  private readonly current: Versioned<{ data: AcceptedFile; error: ConfigFileError | null }>;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, ACCEPTED_SETTINGS_FILE);
    this.current = byVersion(this.file, () => this.readFile());
  }

  /**
   * The accepted versions. A broken file counts as none accepted (the safe defaults apply) and is reported by
   * `record`, which will not overwrite it.
   */
  private read(): { data: AcceptedFile; error: ConfigFileError | null } {
    return this.current.get();
  }

  private readFile(): { data: AcceptedFile; error: ConfigFileError | null } {
    const read = readJsonFile(this.file, AcceptedFile);
    if (read.kind === 'ok') return { data: read.value, error: null };
    const data: AcceptedFile = { version: 1, workspaces: {} };
    if (read.kind === 'absent') return { data, error: null };
    return { data, error: new ConfigFileError(this.file, read.problem, { form: 'clause' }) };
  }

  /** The accepted version of a workspace's file; null when none was accepted. */
  accepted(workspacePath: string, rel: string): string | null {
    return this.read().data.workspaces[workspacePath]?.[rel]?.content ?? null;
  }

  /**
   * What a job applies: the file when it is the accepted version, else the accepted version (null: none, so the
   * loader's safe default). Throws ConfigFileError when the file cannot be read.
   */
  readonly inForce: SettingsText = (workspacePath, rel) => this.inForceOf(workspacePath)(rel);

  /** `inForce` for one workspace with the accepted versions read once: for a loader that reads many files at a time. */
  inForceOf(workspacePath: string): (rel: string) => string | null {
    const files = this.read().data.workspaces[workspacePath] ?? {};
    return (rel) => {
      const current = onDisk(workspacePath, rel);
      const accepted = files[rel]?.content ?? null;
      return current === accepted ? current : accepted;
    };
  }

  /** Records `content` as the accepted version of the file; null: none (the file is absent, and that is accepted). */
  record(workspacePath: string, rel: string, content: string | null): void {
    this.recordMany(workspacePath, [{ file: rel, content }]);
  }

  /**
   * Records several files' accepted versions in one write of the file (a TAKT workspace accepts hundreds at once: one
   * write each would rewrite the whole file hundreds of times).
   */
  recordMany(workspacePath: string, decided: readonly { file: string; content: string | null }[]): void {
    const { data, error } = this.read();
    if (error) throw new ConfigFileError(this.file, `cannot be read, so it is not overwritten: ${error.why}`);
    const files = { ...data.workspaces[workspacePath] };
    const acceptedAt = new Date().toISOString();
    for (const { file: rel, content } of decided) {
      if (content === null) delete files[rel];
      else files[rel] = { sha256: sha256(content), content, acceptedAt };
    }
    const workspaces = { ...data.workspaces, [workspacePath]: files };
    if (Object.keys(files).length === 0) delete workspaces[workspacePath];
    this.write({ ...data, workspaces });
  }

  /** The MCP servers of a workspace a person turned on (true) or off (false) in Settings. */
  mcpSwitches(workspacePath: string): Readonly<Record<string, boolean>> {
    return this.read().data.mcpSwitches?.[workspacePath] ?? {};
  }

  /** Records a person's choice to turn a workspace's MCP server on or off: it applies from the next job start. */
  switchMcpServer(workspacePath: string, server: string, enabled: boolean): void {
    const { data, error } = this.read();
    if (error) throw new ConfigFileError(this.file, `cannot be read, so it is not overwritten: ${error.why}`);
    const switches = {
      ...data.mcpSwitches,
      [workspacePath]: { ...data.mcpSwitches?.[workspacePath], [server]: enabled },
    };
    this.write({ ...data, mcpSwitches: switches });
  }

  private write(data: AcceptedFile): void {
    this.current.forget();
    try {
      writeJsonFile(this.file, data);
    } catch (why) {
      const code = (why as NodeJS.ErrnoException).code ?? 'error';
      throw new ConfigFileError(this.file, `cannot be written (${code})`, { form: 'clause' });
    }
  }

  /** The workspace's piece files in force: those on disk and those accepted (a deleted one still applies). */
  pieceFiles(workspacePath: string): string[] {
    const accepted = Object.keys(this.read().data.workspaces[workspacePath] ?? {}).filter(isPieceWorkflowFile);
    return [...new Set([...pieceFilesOnDisk(workspacePath), ...accepted])].sort();
  }

  /** Every settings file of the workspace whose content is not the accepted version, by file name. */
  changes(workspacePath: string): SettingsChange[] {
    const accepted = Object.keys(this.read().data.workspaces[workspacePath] ?? {}).filter(
      (rel) => !isPieceWorkflowFile(rel) && isSettingsFile(rel),
    );
    const companions = [...new Set([...taktFilesOnDisk(workspacePath), ...accepted])]
      .filter((rel) => !Object.values(SETTINGS_FILES).includes(rel as never))
      .sort();
    const files = [...Object.values(SETTINGS_FILES), ...this.pieceFiles(workspacePath), ...companions];
    const decided = this.read().data.workspaces[workspacePath] ?? {};
    return files.flatMap((file) => {
      const current = onDisk(workspacePath, file);
      const accepted = decided[file]?.content ?? null;
      return current === accepted ? [] : [{ file, accepted, current }];
    });
  }
}

/** The piece files in the workspace's PIECES_DIR, relative; none when it has no such folder. */
export function pieceFilesOnDisk(workspacePath: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(workspacePath, PIECES_DIR));
  } catch {
    return [];
  }
  return names
    .map((n) => `${PIECES_DIR}/${n}`)
    .filter(isPieceWorkflowFile)
    .sort();
}

/** The TAKT companion files in the workspace's `.maestro/` folders (TAKT_FOLDERS), relative. */
export function taktFilesOnDisk(workspacePath: string): string[] {
  const found: string[] = [];
  const walk = (rel: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(workspacePath, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = `${rel}/${e.name}`;
      if (e.isDirectory() && depth > 1) walk(child, depth - 1);
      else if (e.isFile() && isSettingsFile(child)) found.push(child);
    }
  };
  for (const [folder, { depth }] of Object.entries(TAKT_FOLDERS)) {
    walk(`.maestro/${folder}`, depth - folder.split('/').length + 1);
  }
  return found.sort();
}
