// POST /tasks/run, for another agent (A2A, spec §1 OTHER → JOBDB, P10.02): the task is created exactly as POST /tasks
// creates it (its job opening with a PodEvent Invoke, the instruction by an agent), and the answer waits until the
// job has ended, needs a person, or `waitMs` has passed.
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { isTerminal } from '../../src-shared/entities';
import { type JobRecord, toJob } from '../db/repos/jobs';
import type { Store } from '../db/store';
import type { TaskContext } from './context';
import { BY_AGENT, createTask } from './create';

/** Ended, or parked on a person: nothing more happens without someone. Subtask waits and retries go on by themselves. */
const settles = (job: Pick<JobRecord, 'status'>) => isTerminal(job.status) || job.status === 'waiting_human';

export async function runTask(ctx: TaskContext, input: OpParsedInput<'runTask'>): Promise<OpOutput<'runTask'>> {
  const { waitMs, ...create } = input;
  const { task, job } = createTask(ctx, create, BY_AGENT);
  const settled = await waitUntilSettled(ctx.store, job.id, waitMs);
  const latest = ctx.store.jobs.get(job.id);
  return { task: ctx.store.tasks.get(task.id) ?? task, job: latest ? toJob(latest) : job, settled };
}

function waitUntilSettled(store: Store, jobId: string, waitMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const finish = (settled: boolean) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(settled);
    };
    const unsubscribe = store.subscribe((event) => {
      if (event.type === 'job.changed' && event.jobId === jobId && settles(event.job)) finish(true);
    });
    const timer = setTimeout(() => finish(false), waitMs);
    // It may have settled before we listened.
    const now = store.jobs.get(jobId);
    if (now && settles(now)) finish(true);
  });
}
