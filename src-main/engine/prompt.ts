// What the model reads: the static preamble (system message, identical for every job of a piece and workspace),
// the dynamic context (time, files: only in the trailing user message) and the task instruction of this job.
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Task } from '../../src-shared/entities';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
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

/** What the dynamic context may carry besides time, task and files (each only when given). */
export interface DynamicExtras {
  /** The task's Mission, when it has one beyond its title: what the task it is a subtask of is for. */
  mission?: string | null;
  /** Who started the task, when not the user: the scheduler, another agent, a parent task. */
  provenance?: string | null;
  /** Recent console output (e.g. of the last command); its tail is shown. */
  consoleOutput?: string | null;
}

const FILE_LIMIT = 100;
const CONSOLE_CHARS = 4000;

/**
 * The dynamic context (P4.05): date and time, the task, a bounded workspace file listing, the handoff of a Continue
 * with nothing to replay, and recent console output — only ever in the trailing user message.
 */
export function dynamicContext(
  task: Task,
  workspacePath: string,
  now: Date,
  handoff: string | null = null,
  extras: DynamicExtras = {},
): string {
  const lines = [`# Context`, `Current time: ${now.toISOString()}`, `Task: ${task.title}`];
  if (extras.mission) lines.push(`Mission: ${extras.mission}`);
  if (extras.provenance) lines.push(`Started by: ${extras.provenance}`);
  const files = workspaceFiles(workspacePath);
  if (files) lines.push(`Workspace files: ${files}`);
  if (handoff) lines.push(`Handoff: ${handoff}`);
  if (extras.consoleOutput?.trim()) {
    const output = extras.consoleOutput.trimEnd();
    const tail = output.length > CONSOLE_CHARS ? `…${output.slice(-CONSOLE_CHARS)}` : output;
    lines.push(`\n# Recent console output\n\`\`\`\n${tail}\n\`\`\``);
  }
  return lines.join('\n');
}

/**
 * The optional parts of a job's dynamic context (P2.20), built before it runs: the Mission of a subtask (its root
 * task's title) and where the task came from when the user did not start it. A part that does not apply is null.
 */
export function taskContext(store: Store, task: Task): DynamicExtras {
  const parent = task.parentTaskId ? store.tasks.get(task.parentTaskId) : undefined;
  let root = parent;
  for (let depth = 0; root?.parentTaskId && depth < 100; depth++) {
    const above = store.tasks.get(root.parentTaskId);
    if (!above) break;
    root = above;
  }
  const author = store.comments.listForTask(task.id).find((c) => c.kind === 'instruction')?.author;
  const provenance = parent
    ? `a subtask of the task "${oneLine(parent.title)}"`
    : author === 'system'
      ? 'the scheduler (a scheduled run)'
      : author === 'agent'
        ? 'another agent, over the bridge'
        : null;
  return { mission: root ? oneLine(root.title) : null, provenance };
}

/**
 * The task instruction with what this job adds: follow-up comments, the question and answer that resume an ASK,
 * the handoff of a Continue, and what the subtasks of a parent returned.
 */
export function jobInstruction(store: Store, task: Task, job: JobRecord, runtimeDir?: string): string {
  const parts = [`# Task\n${task.instruction}`];
  const attached = runtimeDir ? attachmentsSection(path.join(runtimeDir, 'attachments')) : null;
  if (attached) parts.push(attached);
  const taskComments = store.comments.listForTask(task.id);
  for (const c of store.comments.listForJob(job.id)) {
    if (c.kind === 'comment') parts.push(`# Follow-up from the user\n${c.body}`);
    else if (c.kind === 'handoff') parts.push(`# Continue\n${c.body}`);
    else if (c.kind === 'answer') {
      const question = taskComments.filter((q) => q.kind === 'question' && q.createdAt <= c.createdAt).at(-1);
      parts.push(
        `# Your question and the user's answer\nYou asked: ${question?.body ?? '(question not found)'}\nThe user answered: ${c.body}`,
      );
    }
  }
  const notice = subtaskNotice(store, job.id);
  if (notice) parts.push(notice);
  return parts.join('\n\n');
}

const ATTACHMENT_TEXT_CHARS = 50_000;

/**
 * The task's attachments (stored at creation in runs/{task}/attachments): text files inline, each capped; other
 * files named with their size, since the conversation carries text only.
 */
export function attachmentsSection(dir: string): string | null {
  let names: string[];
  try {
    names = fs.readdirSync(dir).sort();
  } catch {
    return null;
  }
  if (names.length === 0) return null;
  const blocks = names.map((name) => {
    const data = fs.readFileSync(path.join(dir, name));
    if (data.includes(0) || /\.(png|jpe?g|gif|webp)$/i.test(name)) {
      return `## ${name}\n(a binary file of ${data.length} bytes; its content is not shown here)`;
    }
    const text = data.toString('utf8');
    const shown = text.length > ATTACHMENT_TEXT_CHARS ? `${text.slice(0, ATTACHMENT_TEXT_CHARS)}\n… (cut)` : text;
    return `## ${name}\n\`\`\`\n${shown}\n\`\`\``;
  });
  return `# Attachments\n${blocks.join('\n\n')}`;
}

/** What the job's subtasks came to, or null when it has none. */
export function subtaskNotice(store: Store, jobId: string): string | null {
  const children = store.jobs.children(jobId);
  if (children.length === 0) return null;
  const lines = children.map((child) => {
    const title = store.tasks.get(child.taskId)?.title ?? child.taskId;
    const outcome = child.status === 'succeeded' ? (child.result ?? '') : (child.error ?? '');
    return `- ${title} (${child.status}): ${outcome}`.trimEnd();
  });
  return `# Subtasks\n${lines.join('\n')}`;
}

export const firstUserMessage = (dynamic: string, instruction: string): string => `${dynamic}\n\n${instruction}`;

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

const oneLine = (text: string, max = 200): string => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const more = (count: number): string[] => (count > INDEX_LIMIT ? [`- … (${count - INDEX_LIMIT} more)`] : []);

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'out', 'build', 'target', 'vendor', '__pycache__']);

/**
 * Up to FILE_LIMIT paths, breadth first (top level, then one level down), folders marked with a slash; hidden
 * entries and bulky folders (node_modules, build output) are listed but not entered.
 */
function workspaceFiles(root: string, limit = FILE_LIMIT): string {
  const shown: string[] = [];
  let total = 0;
  const queue: { rel: string; depth: number }[] = [{ rel: '', depth: 0 }];
  while (queue.length > 0) {
    const { rel, depth } = queue.shift() as { rel: string; depth: number };
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      continue;
    }
    entries = entries.filter((e) => !e.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      const name = rel ? `${rel}/${e.name}` : e.name;
      total++;
      if (shown.length < limit) shown.push(e.isDirectory() ? `${name}/` : name);
      if (e.isDirectory() && depth < 1 && !SKIPPED_DIRS.has(e.name)) queue.push({ rel: name, depth: depth + 1 });
    }
  }
  return total > shown.length ? `${shown.join(', ')}, … (${total - shown.length} more)` : shown.join(', ');
}
