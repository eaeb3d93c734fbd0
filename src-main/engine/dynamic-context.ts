// What changes per job and per moment, only ever in the trailing user message (spec 3.1): the dynamic context (time,
// task, workspace files, handoff, console), the job's instruction with its attachments, and a subtask notice.
import fs from 'node:fs';
import path from 'node:path';
import type { Task } from '../../src-shared/entities';
import { LESSON_TEXT_MAX } from '../../src-shared/lessons';
import type { JobJournal } from './job-journal';
import { oneLine } from './prompt';

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
export function taskContext(journal: JobJournal): DynamicExtras {
  const { task } = journal;
  const parent = task.parentTaskId ? journal.otherTask(task.parentTaskId) : undefined;
  let root = parent;
  for (let depth = 0; root?.parentTaskId && depth < 100; depth++) {
    const above = journal.otherTask(root.parentTaskId);
    if (!above) break;
    root = above;
  }
  const author = journal.taskComments().find((c) => c.kind === 'instruction')?.author;
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
export function jobInstruction(journal: JobJournal, runtimeDir?: string): string {
  const { task } = journal;
  const parts = [`# Task\n${task.instruction}`];
  const attached = runtimeDir ? attachmentsSection(path.join(runtimeDir, 'attachments')) : null;
  if (attached) parts.push(attached);
  const taskComments = journal.taskComments();
  for (const c of journal.jobComments()) {
    if (c.kind === 'comment') parts.push(`# Follow-up from the user\n${c.body}`);
    else if (c.kind === 'handoff') parts.push(`# Continue\n${c.body}`);
    else if (c.kind === 'answer') {
      const question = taskComments.filter((q) => q.kind === 'question' && q.createdAt <= c.createdAt).at(-1);
      parts.push(
        `# Your question and the user's answer\nYou asked: ${question?.body ?? '(question not found)'}\nThe user answered: ${c.body}`,
      );
    }
  }
  const notice = subtaskNotice(journal);
  if (notice) parts.push(notice);
  const lessons = journal.lessons?.() ?? [];
  if (lessons.length > 0) parts.push(lessonsSection(lessons));
  return parts.join('\n\n');
}

/**
 * The approved lessons of earlier tasks (P2.08), in the task instruction — never in the static preamble, so the
 * cached prefix stays byte-stable however the lessons change (spec 3.1–3.4).
 */
export function lessonsSection(lessons: readonly { text: string }[]): string {
  return `# Lessons from earlier tasks (approved by the user)\n${lessons.map((l) => `- ${oneLine(l.text, LESSON_TEXT_MAX)}`).join('\n')}`;
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
export function subtaskNotice(journal: JobJournal): string | null {
  const children = journal.childJobs();
  if (children.length === 0) return null;
  const lines = children.map((child) => {
    const title = journal.otherTask(child.taskId)?.title ?? child.taskId;
    const outcome = child.status === 'succeeded' ? (child.result ?? '') : (child.error ?? '');
    return `- ${title} (${child.status}): ${outcome}`.trimEnd();
  });
  return `# Subtasks\n${lines.join('\n')}`;
}

export const firstUserMessage = (dynamic: string, instruction: string): string => `${dynamic}\n\n${instruction}`;

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'out', 'build', 'target', 'vendor', '__pycache__']);

/**
 * Up to FILE_LIMIT paths, breadth first (top level, then one level down), folders marked with a slash; hidden
 * entries and bulky folders (node_modules, build output) are listed but not entered. Once the list is full no further
 * folder is read: a workspace of thousands of folders costs a job's start one or two reads, not all of them.
 */
export function workspaceFiles(root: string, limit = FILE_LIMIT): string {
  const shown: string[] = [];
  let total = 0;
  const queue: { rel: string; depth: number }[] = [{ rel: '', depth: 0 }];
  while (queue.length > 0) {
    if (shown.length >= limit) return `${shown.join(', ')}, … (more not listed)`;
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
