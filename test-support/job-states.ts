// A job in any state of the state machine, on a real SQLite file, reached through the job commands as the app
// reaches it; and a snapshot of every row a command may write, to check that a refused command wrote nothing.
import type { JobRecord } from '../src-main/db/repos/jobs';
import type { Store } from '../src-main/db/store';
import { claim } from '../src-main/jobs/claim';
import { cancelJobTree } from '../src-main/jobs/lifecycle';
import { fail, park, type RunHolder, retryLater, succeed, waitForSubtasks } from '../src-main/jobs/run-outcomes';
import { recordMovement } from '../src-main/jobs/run-progress';
import { insertJob, insertTask, tempStore } from './db';
import { insertChildJob } from './tasks';

export const JOB_STATES = [
  'queued',
  'running',
  'waiting_human:ask',
  'waiting_human:tool_request',
  'waiting_human:package_request',
  'waiting_human:browser',
  'waiting_human:mcp_auth_required',
  'waiting_human:settings',
  'waiting_subtasks',
  'retry',
  'succeeded',
  'failed',
  'cancelled',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The worker every running job of these tests runs under. */
export const RUN: RunHolder = { workerId: 'w1', engineRan: true };

const MESSAGE = { message: 'waits for you' };

/** A fresh store with one task whose job is in `state` (running: claimed by RUN's worker, in movement `work`). */
export function jobIn(state: JobState): { store: Store; job: JobRecord } {
  const store = tempStore();
  const taskId = insertTask(store);
  const queued = insertJob(store, taskId);
  if (state === 'queued') return { store, job: queued };
  if (state === 'cancelled') return { store, job: cancelJobTree(store, queued) as JobRecord };
  const running = claim(store, { workerId: RUN.workerId, profiles: null }) as JobRecord;
  recordMovement(store, running.id, 'work');
  const id = running.id;
  const movement = 'work';
  const tool = { callId: 'call_1', tool: 'run_command', args: { command: 'ls' }, summary: 'run ls' };
  const pkg = { callId: 'call_2', manager: 'npm' as const, name: 'left-pad', version: null, reason: 'needed' };
  const job = (): JobRecord => {
    switch (state) {
      case 'running':
        return store.jobs.get(id) as JobRecord;
      case 'waiting_human:ask':
        return park(store, id, RUN, { reason: 'ask', movement, question: 'which one?' });
      case 'waiting_human:tool_request':
        return park(store, id, RUN, { reason: 'approval', movement, toolRequests: [tool], packageRequests: [] });
      case 'waiting_human:package_request':
        return park(store, id, RUN, { reason: 'approval', movement, toolRequests: [], packageRequests: [pkg] });
      case 'waiting_human:browser':
        return park(store, id, RUN, { reason: 'browser', movement, ...MESSAGE });
      case 'waiting_human:mcp_auth_required':
        return park(store, id, { ...RUN, engineRan: false }, { reason: 'mcp_auth_required', movement, ...MESSAGE });
      case 'waiting_human:settings':
        return park(store, id, { ...RUN, engineRan: false }, { reason: 'settings', movement, ...MESSAGE });
      case 'waiting_subtasks':
        // An open child keeps it waiting.
        insertChildJob(store, taskId, id);
        return waitForSubtasks(store, id, RUN, movement);
      case 'retry':
        return retryLater(store, id, RUN, { ...failure, nextRetryAt: Date.now() + 60_000, counted: true });
      case 'succeeded':
        return succeed(store, id, RUN, 'done');
      case 'failed':
        return fail(store, id, RUN, failure);
      default:
        throw new Error(`no way to ${state} here`);
    }
  };
  return { store, job: job() };
}

const failure = { error: 'flaky', errorCode: null, resumeMovement: 'work' };

const TABLES = ['tasks', 'jobs', 'comments', 'tool_requests', 'package_requests', 'task_grants', 'events'];

/** Every row of the tables a job command writes, for comparing before and after. */
export function snapshot(store: Store): Record<string, unknown[]> {
  return Object.fromEntries(TABLES.map((t) => [t, store.db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
}
