// What the model reads: the static preamble (system message, identical for every job of a piece and workspace),
// the dynamic context (time, files: only in the trailing user message) and the task instruction of this job.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { AnyToolDef } from '../tools/types';
import type { MovementDefinition, PieceDefinition } from './pieces/schema';

const RULES = `You are MAESTRO's agent. You work on one task, in the workspace folder below, through tool calls.
- Act by calling tools. A reply without a tool call does not move the task on.
- Paths are relative to the workspace folder; nothing outside it can be read or changed.
- When the task is done, call \`complete\` with status "success" and a short summary for the user.
- When you cannot go on without the user's answer, call \`complete\` with status "needs_user_input" and one question.
- When the task cannot be done, call \`complete\` with status "failure" and the reason.
- Messages from the user may arrive while you work; take them into account.`;

/** Instruction files read into the preamble, in this order, when present (each at most 32 KiB). */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md', '.maestro/AGENTS.md'] as const;
export const MEMORY_DIR = '.maestro/memory';
export const SKILLS_DIR = '.maestro/skills';
const INDEX_LIMIT = 50;

/**
 * The system message's static part (P4.04): common rules, piece, tool overview, the workspace's instruction files,
 * the Memory index, the Skills index and the working directory. Nothing of the job or the moment goes in (no time,
 * Mission, files, handoff, console), so it is byte-identical for the same workspace, piece and tools (P5.06).
 */
export function staticPreamble(piece: PieceDefinition, tools: readonly AnyToolDef[], workspacePath: string): string {
  const parts = [RULES, `# Piece: ${piece.name}\n${piece.description}`.trim()];
  if (tools.length > 0) {
    parts.push(`# Tools\n${tools.map((t) => `- ${t.name}: ${t.description.split('. ')[0]}`).join('\n')}`);
  }
  for (const name of INSTRUCTION_FILES) {
    const text = readIfSmall(path.join(workspacePath, name));
    if (text) parts.push(`# Project instructions (${name})\n${text}`);
  }
  const memory = memoryIndex(workspacePath);
  if (memory) parts.push(memory);
  const skills = skillsIndex(workspacePath);
  if (skills) parts.push(skills);
  parts.push(`# Working directory\n${workspacePath}`);
  return parts.join('\n\n');
}

/** `.maestro/memory/*.md` by file name: each note's first heading, or its file name when it has none. */
export function memoryIndex(workspacePath: string): string | null {
  const dir = path.join(workspacePath, MEMORY_DIR);
  const files = listNames(dir).filter((n) => n.endsWith('.md'));
  if (files.length === 0) return null;
  const lines = files.slice(0, INDEX_LIMIT).map((name) => {
    const heading = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(readHead(path.join(dir, name)))?.[1];
    return `- ${MEMORY_DIR}/${name}: ${oneLine(heading ?? name.slice(0, -3))}`;
  });
  return [
    '# Memory',
    `Notes kept for this workspace; read one with read_file when it bears on the task.`,
    ...lines,
    ...more(files.length),
  ].join('\n');
}

/** The SKILL.md of each folder under `.maestro/skills`, by folder name: the name and description of its front matter. */
export function skillsIndex(workspacePath: string): string | null {
  const dir = path.join(workspacePath, SKILLS_DIR);
  const skills = listNames(dir).filter((n) => isFile(path.join(dir, n, 'SKILL.md')));
  if (skills.length === 0) return null;
  const lines = skills.slice(0, INDEX_LIMIT).map((folder) => {
    const file = `${SKILLS_DIR}/${folder}/SKILL.md`;
    const meta = frontMatter(readHead(path.join(workspacePath, file)));
    const name = oneLine(typeof meta.name === 'string' && meta.name.trim() ? meta.name : folder);
    const description = typeof meta.description === 'string' ? oneLine(meta.description) : '';
    return `- ${name} (${file})${description ? `: ${description}` : ''}`;
  });
  return [
    '# Skills',
    "Read a skill's SKILL.md with read_file before doing what it describes.",
    ...lines,
    ...more(skills.length),
  ].join('\n');
}

export const movementGuidance = (movement: MovementDefinition): string =>
  `# Movement: ${movement.name}\n${movement.guidance}`.trim();

export function systemMessage(preamble: string, start: MovementDefinition): string {
  return `${preamble}\n\n${movementGuidance(start)}`;
}

function readIfSmall(file: string, max = 32 * 1024): string | null {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > max) return null;
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** The first 4 KiB of a file: enough for a heading or a front matter. */
function readHead(file: string, max = 4096): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r');
    const buffer = Buffer.alloc(max);
    const n = fs.readSync(fd, buffer, 0, max, 0);
    return buffer.subarray(0, n).toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A YAML front matter's fields, or {} when there is none or it does not parse. */
function frontMatter(text: string): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\s*(?:\r?\n|$)/.exec(text);
  if (!match) return {};
  try {
    const value = parseYaml(match[1] as string) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Entry names of a folder in code-unit order (the same bytes on every machine), hidden ones left out. */
function listNames(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => !n.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export const oneLine = (text: string, max = 200): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const more = (count: number): string[] => (count > INDEX_LIMIT ? [`- … (${count - INDEX_LIMIT} more)`] : []);
