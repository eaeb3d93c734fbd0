// The Reflection path of the Worker (spec §2 F→FR, P2.08): no workspace preparation, no piece, no tools, no MCP
// servers, no agent context — the task's record read from the store, one request through the engine (the job's
// profile, the LLM client's retries and capacity), the reply checked, secrets redacted, and the outcome the job ends in.

import { LESSON_EVIDENCE_MAX, LESSON_TEXT_MAX } from '../../src-shared/lessons';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';
import type { Engine } from '../engine/piece-result';
import type { ReflectionOutcome } from '../jobs/reflection';
import { redactSecrets } from './redact';
import { parseReflection, reflectionMessages, type TaskRecord } from './reflection';

/** How many of the task's latest chat steps the record reads (their tool calls and results). */
const RECORD_STEPS = 200;

/** The task's record as a Reflection reads it: its work, not its earlier Reflections. */
export function taskRecord(store: Store, taskId: string): TaskRecord | undefined {
  const task = store.tasks.get(taskId);
  if (!task) return undefined;
  const latest = store.jobs.latestForTask(taskId);
  return {
    task,
    comments: store.comments.listForTask(taskId),
    steps: store.chatPages.latest(taskId, RECORD_STEPS).steps,
    toolRequests: store.toolRequests.listForTask(taskId),
    outcome: latest ? { status: latest.status, error: latest.error, result: latest.result } : null,
    kept: latest
      ? store.lessons
          .approvedFor({ workspacePath: task.workspacePath, pieceId: latest.pieceId })
          .map(({ id, text }) => ({ id, text }))
      : [],
  };
}

/** Runs a Reflection job's request; never throws: a failure is the outcome `failed` with its reason. */
export async function runReflection(
  store: Store,
  engine: Engine,
  job: JobRecord,
  signal: AbortSignal,
  secrets: () => readonly string[],
): Promise<ReflectionOutcome> {
  const fail = (reason: string): ReflectionOutcome => ({ kind: 'failed', reason: redactSecrets(reason, secrets()) });
  if (!engine.reflect) return fail('this host’s engine cannot run a Reflection');
  const task = store.tasks.get(job.taskId);
  const record = taskRecord(store, job.taskId);
  if (!task || !record) return fail(`task ${job.taskId} does not exist`);
  let reply: string;
  try {
    reply = await engine.reflect({ job, messages: reflectionMessages(record), signal });
  } catch (error) {
    return fail(`the Reflection request failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parseReflection(reply, record.kept);
  if (!parsed.ok) return fail(parsed.reason);
  const known = secrets();
  // Redacted before anything is stored; a mask longer than what it hid must not push a lesson past its limit.
  const lessons = parsed.lessons.map((l) => ({
    text: redactSecrets(l.text, known).slice(0, LESSON_TEXT_MAX),
    evidence: redactSecrets(l.evidence, known).slice(0, LESSON_EVIDENCE_MAX),
    scope: 'workspace' as const,
    workspacePath: task.workspacePath,
    pieceId: job.pieceId,
    replaces: l.replaces,
  }));
  return { kind: 'lessons', lessons };
}
