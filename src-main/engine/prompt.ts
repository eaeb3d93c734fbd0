// What the model reads: the static preamble (system message, identical for every job of a piece and workspace),
// the dynamic context (time, files: only in the trailing user message) and the task instruction of this job.
import fs from 'node:fs';
import path from 'node:path';
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

export function staticPreamble(piece: PieceDefinition, tools: readonly AnyToolDef[], workspacePath: string): string {
  const parts = [RULES, `# Piece: ${piece.name}\n${piece.description}`.trim()];
  if (tools.length > 0) {
    parts.push(`# Tools\n${tools.map((t) => `- ${t.name}: ${t.description.split('. ')[0]}`).join('\n')}`);
  }
  const agents = readIfSmall(path.join(workspacePath, 'AGENTS.md'));
  if (agents) parts.push(`# Project instructions (AGENTS.md)\n${agents}`);
  parts.push(`# Working directory\n${workspacePath}`);
  return parts.join('\n\n');
}

export const movementGuidance = (movement: MovementDefinition): string =>
  `# Movement: ${movement.name}\n${movement.guidance}`.trim();

export function systemMessage(preamble: string, start: MovementDefinition): string {
  return `${preamble}\n\n${movementGuidance(start)}`;
}

export function dynamicContext(task: Task, workspacePath: string, now: Date, handoff: string | null = null): string {
  const lines = [`# Context`, `Current time: ${now.toISOString()}`, `Task: ${task.title}`];
  const files = topLevelFiles(workspacePath);
  if (files) lines.push(`Workspace files (top level): ${files}`);
  if (handoff) lines.push(`Handoff: ${handoff}`);
  return lines.join('\n');
}

/**
 * The task instruction with what this job adds: follow-up comments, the question and answer that resume an ASK,
 * the handoff of a Continue, and what the subtasks of a parent returned.
 */
export function jobInstruction(store: Store, task: Task, job: JobRecord): string {
  const parts = [`# Task\n${task.instruction}`];
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

function topLevelFiles(dir: string, max = 50): string {
  try {
    const entries = fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.name.startsWith('.'))
      .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
      .sort();
    const shown = entries.slice(0, max).join(', ');
    return entries.length > max ? `${shown}, … (${entries.length - max} more)` : shown;
  } catch {
    return '';
  }
}
