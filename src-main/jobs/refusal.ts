// A job command called on a state it does not apply to refuses with a code, before it writes anything: the code
// tells the caller what was wrong (and the bridge answers it with its HTTP status), the command says which refused.
import { type ErrorCode, MaestroError } from '../../src-shared/errors';
import type { JobRecord } from '../db/repos/jobs';
import type { Store } from '../db/store';

export type RefusalCode = Extract<
  ErrorCode,
  'not_found' | 'conflict' | 'already_decided' | 'job_not_terminal' | 'job_not_waiting'
>;

export class JobCommandError extends MaestroError {
  declare readonly code: RefusalCode;
  constructor(
    readonly command: string,
    code: RefusalCode,
    message: string,
  ) {
    super(code, message);
  }
}

/** The job as it is now (inside the command's transaction), or a `not_found` refusal. */
export function currentJob(store: Store, command: string, jobId: string): JobRecord {
  const job = store.jobs.get(jobId);
  if (!job) throw new JobCommandError(command, 'not_found', `${command}: no job ${jobId}`);
  return job;
}

/** The job, held by `workerId` and running: the state every outcome of a run applies to. */
export function heldJob(store: Store, command: string, jobId: string, workerId: string): JobRecord {
  const job = currentJob(store, command, jobId);
  if (job.status !== 'running' || job.workerId !== workerId) {
    throw new JobCommandError(
      command,
      'conflict',
      `${command}: job ${jobId} is ${job.status}${job.workerId ? ` under ${job.workerId}` : ''}, not running under ${workerId}`,
    );
  }
  return job;
}
