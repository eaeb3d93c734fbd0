// The engine's JobJournal over the store: each operation a job command (run-progress.ts, requests.ts), a read or one
// transaction, so a job's run writes the DB through this port only (the engine imports nothing from db/). The loop guards' state is kept in
// job_guards, parsed with zod when a run reads it back, and its call counts in job_guard_calls.
import type { Task } from '../../src-shared/entities';
import { newId } from '../db/ids';
import type { Store } from '../db/store';
import { type CallChanges, type LoopState, parseLoopState } from '../engine/guards/loop-state';
import type { EngineJob, JobJournal, JobJournals } from '../engine/job-journal';
import { DEFAULT_LESSON_BUDGET, type LessonBudget, withinBudget } from './lesson-budget';
import { insertTaskWithJob, titleFrom } from './lifecycle';
import { markCallStarted } from './requests';
import { consumeInvoke, markDelivered, recordMovement } from './run-progress';
import { taskTranscript } from './transcripts';

/** The journals of the jobs that run over `store`; `lessonBudget`: the settings' (read when a job's instruction is built). */
export const jobJournals =
  (store: Store, lessonBudget: () => LessonBudget = () => DEFAULT_LESSON_BUDGET): JobJournals =>
  (task, job) =>
    storeJournal(store, task, job, lessonBudget);

export function storeJournal(
  store: Store,
  task: Task,
  job: EngineJob,
  lessonBudget: () => LessonBudget = () => DEFAULT_LESSON_BUDGET,
): JobJournal {
  const taskId = task.id;
  const jobId = job.id;
  // The call counts as stored for this job, a row each, so that a step writes only those it changed; read at the
  // run's first save, and again after a save that failed. A step whose transaction fails later ends the run (it
  // throws), and the next run reads them again.
  let storedCalls: Map<string, number> | null = null;
  const saveGuards = (guards: LoopState, changes?: CallChanges) =>
    store.transact(() => {
      const { calls, ...rest } = guards;
      // Only the calls counted since the last save can differ from the rows, unless the rows were just read or the
      // counts cleared: then every call is compared (a long job's lineage makes hundreds; a step counts a few).
      const known = storedCalls !== null && changes !== undefined && !changes.cleared;
      const stored = storedCalls ?? new Map(Object.entries(store.jobGuards.calls(jobId)));
      storedCalls = null;
      store.jobGuards.put(jobId, JSON.stringify({ ...rest, calls: {} }));
      const put = (call: string) => {
        const times = calls[call];
        if (times === undefined || stored.get(call) === times) return;
        store.jobGuards.putCall(jobId, call, times);
        stored.set(call, times);
      };
      if (known) {
        for (const call of changes.counted) put(call);
      } else {
        for (const call in calls) put(call);
        for (const call of stored.keys()) {
          if (Object.hasOwn(calls, call)) continue;
          store.jobGuards.deleteCall(jobId, call);
          stored.delete(call);
        }
      }
      storedCalls = stored;
    });
  const readGuards = (id: string) => {
    const stored = store.jobGuards.get(id);
    if (stored === undefined) return undefined;
    const state = parseLoopState(stored.state, id);
    // A state stored before migration 25 holds its counts in its JSON; the rows are newer.
    return { ...state, calls: { ...state.calls, ...stored.calls } };
  };
  return {
    task,
    job,
    step: (record) => store.transact(record),
    publish: (event) => store.publish(event),
    transient: (event) => store.emitTransient(event),

    append: (entry, now) => store.logEntries.append({ ...entry, taskId, jobId }, now),
    lastInvokeSeq: () => store.logEntries.lastInvokeSeq(taskId),
    turnOfCall: (callId) => store.logEntries.turnOfCall(taskId, jobId, callId),
    invokes: () => store.logEntries.invokes(taskId),
    rewinds: () =>
      store.checkpoints
        .rewinds(taskId)
        .filter((r) => !r.undone)
        .map(({ fromSeq, untilSeq }) => ({ fromSeq, untilSeq })),
    transcript: (runtimeDir) => taskTranscript(store, runtimeDir, taskId),

    invokeOpened: () => consumeInvoke(store, jobId),
    recordMovement: (movement, guards) =>
      store.transact(() => {
        recordMovement(store, jobId, movement);
        saveGuards(guards);
        store.publish({ type: 'movement.entered', taskId, jobId, movement });
      }),
    saveGuards,
    guards: () => {
      const own = readGuards(jobId);
      if (own !== undefined) return own;
      const asking = askingJob(store, taskId, jobId);
      return (asking === undefined ? undefined : readGuards(asking)) ?? null;
    },
    otherJob: (id) => store.jobs.get(id),
    taskJobs: () => store.jobs.listForTask(taskId).filter((j) => j.kind === 'run'),
    otherTask: (id) => store.tasks.get(id),

    jobComments: () => store.comments.listForJob(jobId),
    taskComments: () => store.comments.listForTask(taskId),
    undeliveredInterjections: () => store.comments.undeliveredInterjections(jobId),
    markDelivered: (commentId) => markDelivered(store, commentId),
    onInterjection: (listener) =>
      store.subscribe((e) => {
        if (e.type === 'comment.created' && e.jobId === jobId && e.comment.kind === 'interjection') listener();
      }),

    toolRequests: () => store.toolRequests.listForJob(jobId),
    packageRequests: () => store.packageRequests.listForJob(jobId),
    markToolCallStarted: (requestId) => markCallStarted(store, { kind: 'tool', id: requestId }),
    markPackageStarted: (requestId) => markCallStarted(store, { kind: 'package', id: requestId }),
    activeGrants: () => store.taskGrants.activeForTask(taskId),
    lessons: () =>
      store.transact(() => {
        const place = { workspacePath: task.workspacePath, pieceId: job.pieceId };
        const chosen = withinBudget(store.lessons.approvedFor(place), lessonBudget());
        store.lessons.markUsed(chosen.map((l) => l.id));
        return chosen.map(({ id, text }) => ({ id, text }));
      }),

    childJobs: () => store.jobs.children(jobId),
    openChildCount: () => store.jobs.openChildCount(jobId),
    spawnSubtask: (draft, refuse) =>
      store.transact(() => {
        const { rootId, depth } = store.tasks.ancestry(taskId) ?? { rootId: taskId, depth: 0 };
        const refusal = refuse({ depth, count: store.tasks.subtaskCount(rootId) });
        if (refusal !== null) return refusal;
        return insertTaskWithJob(store, {
          id: newId('task'),
          title: draft.title ?? titleFrom(draft.instruction),
          instruction: draft.instruction,
          pieceId: draft.pieceId,
          workspacePath: task.workspacePath,
          workspaceKind: store.tasks.workspaceKind(taskId) ?? 'persistent',
          spaceId: store.tasks.spaceId(taskId),
          profile: task.profile,
          parentTaskId: taskId,
          parentJobId: jobId,
          invoke: 'PodEvent',
          author: 'agent',
        });
      }),
  };
}

/**
 * The job whose question `jobId` answers: the answer to an ASK opens a follow-up job, which goes on with the asking
 * job's guards (one lineage), so a question is no way around max_movements. Any other follow-up starts them over.
 */
function askingJob(store: Store, taskId: string, jobId: string): string | undefined {
  if (!store.comments.listForJob(jobId).some((c) => c.kind === 'answer')) return undefined;
  // A Reflection job that ran in between asked nothing (P2.08).
  const jobs = store.jobs.listForTask(taskId).filter((j) => j.kind === 'run');
  return jobs[jobs.findIndex((j) => j.id === jobId) - 1]?.id;
}
