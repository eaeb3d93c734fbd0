// What a TAKT step may do, as MAESTRO tools: its tool allowlist (`allowed_tools`, `provider_options.<claude|opencode>.
// allowed_tools`, a provider-options preset via `provider_options.extends`, or `capabilities` naming presets) mapped to
// MAESTRO's tools, and whether it may edit. Presets are read from `provider-options/<name>.yaml` beside the workflow
// folder; TAKT's bundled readonly / edit / enable-skills are known without their files.
import path from 'node:path';
import YAML from 'yaml';
import { TaktError, type TaktFiles } from './takt-files';
import type { TaktStep } from './takt-schema';

/** TAKT tool names (Claude's and OpenCode's, compared in lower case) → MAESTRO tools. Web and todo tools have none. */
const TOOL_MAP: Record<string, string[]> = {
  read: ['read_file', 'list_dir'],
  ls: ['list_dir'],
  list: ['list_dir'],
  glob: ['glob'],
  grep: ['grep'],
  edit: ['edit_file'],
  multiedit: ['edit_file'],
  patch: ['edit_file'],
  apply_patch: ['edit_file'],
  write: ['write_file'],
  bash: ['run_command'],
};
const CHANGING = new Set(['edit_file', 'write_file', 'run_command']);
const WRITING = new Set(['edit_file', 'write_file']);

const READONLY = ['Read', 'Glob', 'Grep', 'Bash', 'WebSearch', 'WebFetch'];
/** TAKT's bundled presets (builtins/<lang>/provider-options): their Claude allowlists; null = no allowlist. */
const BUNDLED: Record<string, string[] | null> = {
  readonly: READONLY,
  edit: [...READONLY.slice(0, 3), 'Edit', 'Write', ...READONLY.slice(3)],
  'enable-skills': null,
};

/** MAESTRO tools for TAKT tool names, in first-seen order (`Bash(npm test:*)` counts as Bash). */
export function mapTools(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const canonical = (name.split('(')[0] as string).trim().toLowerCase();
    for (const tool of TOOL_MAP[canonical] ?? []) if (!out.includes(tool)) out.push(tool);
  }
  return out;
}

/** The allowlist a preset sets, or null when it sets none. */
function presetAllowlist(files: TaktFiles, workflowRel: string, name: string): string[] | null {
  const dir = path.posix.dirname(workflowRel);
  const candidates = /^\.\.?\//.test(name)
    ? [path.posix.normalize(path.posix.join(dir, name))]
    : ['yaml', 'yml'].map((ext) => path.posix.join(path.posix.dirname(dir), 'provider-options', `${name}.${ext}`));
  for (const rel of candidates) {
    const text = rel.startsWith('../') ? null : files.read(rel);
    if (text === null) continue;
    let value: unknown;
    try {
      value = YAML.parse(text);
    } catch (error) {
      throw new TaktError(`provider-options preset ${name} (${files.show(rel)}): ${(error as Error).message}`);
    }
    const v = (value ?? {}) as Record<string, { allowed_tools?: unknown } | undefined>;
    const list = v.claude?.allowed_tools ?? v.opencode?.allowed_tools;
    return Array.isArray(list) ? list.map(String) : null;
  }
  if (name in BUNDLED) return BUNDLED[name] ?? null;
  throw new TaktError(
    `no provider-options preset named ${name} (looked for ${candidates.map((c) => files.show(c)).join(', ')})`,
  );
}

/** The allowlist of a list of presets: later ones win (TAKT merges them left to right). */
function presetsAllowlist(files: TaktFiles, workflowRel: string, names: string | string[]): string[] | null {
  let list: string[] | null = null;
  for (const name of Array.isArray(names) ? names : [names]) list = presetAllowlist(files, workflowRel, name) ?? list;
  return list;
}

export interface StepPermissions {
  /** null: every tool of the piece. */
  tools: string[] | null;
  edit: boolean;
}

/**
 * A step's tools and edit permission. The allowlist is the step's own (`allowed_tools`, then provider_options, then
 * `capabilities`), else the workflow's `capabilities`. `edit` is the step's when set, else true for
 * `required_permission_mode: edit|full` or an allowlist that can edit. As in TAKT, a step that may not edit
 * (`edit: false`, or reports without `edit: true`) loses the commands and edits of its allowlist.
 */
export function stepPermissions(
  step: TaktStep,
  files: TaktFiles,
  workflowRel: string,
  workflowCapabilities: string | string[] | undefined,
): StepPermissions {
  const options = step.provider_options;
  const allowlist =
    step.allowed_tools ??
    options?.claude?.allowed_tools ??
    options?.opencode?.allowed_tools ??
    (options?.extends ? presetsAllowlist(files, workflowRel, options.extends) : null) ??
    (step.capabilities ? presetsAllowlist(files, workflowRel, step.capabilities) : null) ??
    (workflowCapabilities ? presetsAllowlist(files, workflowRel, workflowCapabilities) : null);
  let tools = allowlist === null ? null : mapTools(allowlist);
  const mode = step.required_permission_mode ?? step.permission_mode;
  const edit = step.edit ?? (mode === 'edit' || mode === 'full' || (tools?.some((t) => WRITING.has(t)) ?? false));
  const reportsOnly = step.edit !== true && (step.output_contracts?.report?.length ?? 0) > 0;
  if (tools && (step.edit === false || reportsOnly)) tools = tools.filter((t) => !CHANGING.has(t));
  return { tools, edit: edit && !reportsOnly };
}
