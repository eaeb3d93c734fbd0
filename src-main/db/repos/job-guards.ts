// Repository of job_guards: the loop guards' state of each job, as the JSON the engine's journal writes and parses.
import type { SqlDatabase } from '../sql';

export function createJobGuardsRepo(db: SqlDatabase) {
  const get = db.prepare<[string], { state: string }>('SELECT state FROM job_guards WHERE job_id = ?');
  const put = db.prepare<[string, string, number]>(
    `INSERT INTO job_guards (job_id, state, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (job_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
  );
  return {
    /** The job's stored state (JSON), or undefined before its first movement. */
    get(jobId: string): string | undefined {
      return get.get(jobId)?.state;
    },
    put(jobId: string, state: string, now = Date.now()): void {
      put.run(jobId, state, now);
    },
  };
}
