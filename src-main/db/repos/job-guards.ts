// Repository of job_guards and job_guard_calls: the loop guards' state of each job, as the JSON the engine's journal
// writes and parses, and the tool-loop guard's counts, a row a call, written as they change.
import type { SqlDatabase } from '../sql';

export interface StoredGuards {
  /** The state's JSON (its `calls`: those counted before migration 25, if any). */
  state: string;
  /** The counts stored a row each, by call digest. */
  calls: Record<string, number>;
}

export function createJobGuardsRepo(db: SqlDatabase) {
  const get = db.prepare<[string], { state: string }>('SELECT state FROM job_guards WHERE job_id = ?');
  const callsOf = db.prepare<[string], { call: string; times: number }>(
    'SELECT call, times FROM job_guard_calls WHERE job_id = ?',
  );
  const put = db.prepare<[string, string, number]>(
    `INSERT INTO job_guards (job_id, state, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (job_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
  );
  const putCall = db.prepare<[string, string, number]>(
    `INSERT INTO job_guard_calls (job_id, call, times) VALUES (?, ?, ?)
     ON CONFLICT (job_id, call) DO UPDATE SET times = excluded.times`,
  );
  const deleteCall = db.prepare<[string, string]>('DELETE FROM job_guard_calls WHERE job_id = ? AND call = ?');
  const calls = (jobId: string) => {
    const counts: Record<string, number> = {};
    for (const { call, times } of callsOf.all(jobId)) counts[call] = times;
    return counts;
  };
  return {
    /** The job's stored state, or undefined before its first movement. */
    get(jobId: string): StoredGuards | undefined {
      const row = get.get(jobId);
      return row && { state: row.state, calls: calls(jobId) };
    },
    /** The counts stored a row each. */
    calls,
    put(jobId: string, state: string, now = Date.now()): void {
      put.run(jobId, state, now);
    },
    /** One call's count (a digest of its name and arguments: call-loop-guard.ts). */
    putCall(jobId: string, call: string, times: number): void {
      putCall.run(jobId, call, times);
    },
    deleteCall(jobId: string, call: string): void {
      deleteCall.run(jobId, call);
    },
  };
}
