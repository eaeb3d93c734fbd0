// Repository of schedule_runs: the Scheduler's durable state per schedule id (the schedules themselves are the
// user's file, <dataDir>/schedules.json).

import { isoOrNull } from '../ids';
import type { SqlDatabase } from '../sql';

export interface ScheduleRun {
  scheduleId: string;
  nextRunAt: number;
  lastRunAt: string | null;
  lastTaskId: string | null;
  lastError: string | null;
}

interface Row {
  schedule_id: string;
  next_run_at: number;
  last_run_at: number | null;
  last_task_id: string | null;
  last_error: string | null;
}

export function createScheduleRunsRepo(db: SqlDatabase) {
  const byId = db.prepare<[string], Row>('SELECT * FROM schedule_runs WHERE schedule_id = ?');
  const insert = db.prepare<[string, number]>(
    'INSERT INTO schedule_runs (schedule_id, next_run_at) VALUES (?, ?) ON CONFLICT (schedule_id) DO NOTHING',
  );
  const fired = db.prepare<{ id: string; next: number; at: number; taskId: string | null; error: string | null }>(
    `UPDATE schedule_runs SET next_run_at = @next, last_run_at = @at, last_task_id = @taskId, last_error = @error
     WHERE schedule_id = @id`,
  );
  return {
    get(scheduleId: string): ScheduleRun | undefined {
      const r = byId.get(scheduleId);
      return (
        r && {
          scheduleId: r.schedule_id,
          nextRunAt: r.next_run_at,
          lastRunAt: isoOrNull(r.last_run_at),
          lastTaskId: r.last_task_id,
          lastError: r.last_error,
        }
      );
    },
    /** A schedule seen for the first time fires first at `nextRunAt`; one already known keeps its state. */
    ensure(scheduleId: string, nextRunAt: number): void {
      insert.run(scheduleId, nextRunAt);
    },
    recordRun(scheduleId: string, run: { next: number; at: number; taskId: string | null; error: string | null }) {
      fired.run({ id: scheduleId, ...run });
    },
  };
}
