// Test support for the Reflection and lessons tests (P2.08): scripted lessons replies, the messages of a recorded
// request, waiting for a task's Reflection job to end, and the lessons table as stored.
import type { Job } from '../src-shared/entities';
import type { Harness } from './engine-harness';
import type { RecordedRequest, ScriptedStep } from './scripted-llm-server';

export const reply = (value: unknown): ScriptedStep => ({
  text: typeof value === 'string' ? value : JSON.stringify(value),
});
export const lessonsReply = (...lessons: { lesson: string; evidence?: string; replaces?: string }[]) =>
  reply({ lessons });

export const messagesOf = (r: RecordedRequest | undefined) =>
  (r?.body?.messages ?? []) as { role: string; content: string }[];
export const lastUser = (r: RecordedRequest | undefined) =>
  messagesOf(r)
    .filter((m) => m.role === 'user')
    .at(-1)?.content ?? '';

/** The Reflection job of a task, once it has ended. */
export async function reflectionOf(h: Harness, taskId: string): Promise<Job> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const job = h.maestro.store.jobs.reflectionsForTask(taskId).at(-1);
    if (job && ['succeeded', 'failed'].includes(job.status)) return job;
    if (Date.now() > deadline) throw new Error(`no Reflection of ${taskId} ended; it is ${job?.status ?? 'absent'}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export const lessonsTable = (h: Harness) => h.maestro.store.db.prepare('SELECT * FROM lessons ORDER BY rowid').all();
