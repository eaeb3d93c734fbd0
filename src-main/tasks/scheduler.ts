// The Scheduler (spec §1 OTHER → JOBDB): the schedules of <dataDir>/schedules.json start tasks on their own — through
// the same validation as POST /tasks, each job opening with an Invoke `Wakeup` whose SystemTurn carries the
// instruction, authored by the system (P10.01, P9.04). When a schedule fires next is kept in the DB, so a restart
// neither repeats nor loses a run; runs missed while the app was closed fire once, then the schedule goes on.
import path from 'node:path';
import { z } from 'zod';
import { MaestroError } from '../../src-shared/errors';
import { brokenFileError, readJsonFile } from '../workspace/json-file';
import type { TaskContext } from './context';
import { createTask } from './create';

export const SCHEDULES_FILE = 'schedules.json';

const EVERY = /^([1-9]\d*)(m|h|d)$/;
const AT = /^([01]\d|2[0-3]):([0-5]\d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

const Schedule = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1–64 letters, digits, ".", "_" or "-"'),
    instruction: z.string().trim().min(1, 'must not be empty').max(100_000),
    title: z.string().trim().min(1).max(200).optional(),
    pieceId: z.string().min(1).max(200).optional(),
    workspacePath: z.string().min(1).max(4096).optional(),
    every: z.string().regex(EVERY, 'must be a number and a unit: "15m", "2h" or "1d"').optional(),
    at: z.string().regex(AT, 'must be a local time "HH:MM"').optional(),
    enabled: z.boolean().default(true),
  })
  .strict()
  .refine((s) => (s.every === undefined) !== (s.at === undefined), {
    message: 'give exactly one of "every" and "at"',
    path: ['every'],
  });
export type Schedule = z.infer<typeof Schedule>;

const SchedulesFile = z
  .object({ schedules: z.array(Schedule) })
  .strict()
  .refine((f) => new Set(f.schedules.map((s) => s.id)).size === f.schedules.length, {
    message: 'each schedule needs its own id',
    path: ['schedules'],
  });

/** schedules.json cannot be used: the one ConfigFileError, by the name its callers catch. */

/** The schedules of the file; [] when it does not exist. Throws ConfigFileError naming the file and the field. */
export function loadSchedules(file: string): Schedule[] {
  const read = readJsonFile(file, SchedulesFile);
  if (read.kind === 'absent') return [];
  if (read.kind === 'broken') throw brokenFileError(file, read, { instead: 'the Scheduler is off' });
  return read.value.schedules;
}

/** The first run strictly after `after`: the next interval, or the next local HH:MM. */
export function nextRunAfter(schedule: Pick<Schedule, 'every' | 'at'>, after: number): number {
  const every = schedule.every?.match(EVERY);
  if (every) return after + Number(every[1]) * UNIT_MS[every[2] as keyof typeof UNIT_MS];
  const [, hh, mm] = schedule.at?.match(AT) ?? [];
  const next = new Date(after);
  next.setHours(Number(hh), Number(mm), 0, 0);
  if (next.getTime() <= after) next.setDate(next.getDate() + 1);
  return next.getTime();
}

export interface SchedulerOptions {
  now?: () => number;
  warn?: (message: string) => void;
  /** Longest sleep between checks (the clock may jump: sleep, a changed time zone). Default one minute. */
  maxSleepMs?: number;
}

export class Scheduler {
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  private readonly warn: (message: string) => void;

  constructor(
    private readonly ctx: TaskContext,
    private readonly schedules: readonly Schedule[],
    private readonly options: SchedulerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.warn = options.warn ?? ((message) => console.warn(message));
    const now = this.now();
    for (const s of schedules) ctx.store.scheduleRuns.ensure(s.id, nextRunAfter(s, now));
  }

  /** Reads <dataDir>/schedules.json; a broken file is logged and leaves the Scheduler off (null). */
  static fromDataDir(ctx: TaskContext, options: SchedulerOptions = {}): Scheduler | null {
    try {
      const schedules = loadSchedules(path.join(ctx.dataDir, SCHEDULES_FILE));
      return schedules.length > 0 ? new Scheduler(ctx, schedules, options) : null;
    } catch (error) {
      (options.warn ?? console.warn)((error as Error).message);
      return null;
    }
  }

  start(): void {
    this.arm(0);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Fires every enabled schedule that is due at `now`; returns the ids of the tasks it started. */
  tick(now = this.now()): string[] {
    const started: string[] = [];
    for (const schedule of this.schedules) {
      const run = this.ctx.store.scheduleRuns.get(schedule.id);
      if (!schedule.enabled || !run || run.nextRunAt > now) continue;
      const next = nextRunAfter(schedule, now);
      try {
        const { task } = createTask(
          this.ctx,
          {
            instruction: schedule.instruction,
            title: schedule.title ?? `${schedule.id} (scheduled)`,
            ...(schedule.pieceId ? { pieceId: schedule.pieceId } : {}),
            ...(schedule.workspacePath ? { workspacePath: schedule.workspacePath } : {}),
          },
          { invoke: 'Wakeup', author: 'system' },
        );
        this.ctx.store.scheduleRuns.recordRun(schedule.id, { next, at: now, taskId: task.id, error: null });
        started.push(task.id);
      } catch (error) {
        // The same refusal POST /tasks gives (a folder gone, a piece removed): kept on the schedule, tried next time.
        const message = error instanceof MaestroError ? error.message : (error as Error).message;
        this.warn(`schedule ${schedule.id} did not start a task: ${message}`);
        const taskId = this.ctx.store.scheduleRuns.get(schedule.id)?.lastTaskId ?? null;
        this.ctx.store.scheduleRuns.recordRun(schedule.id, { next, at: now, taskId, error: message });
      }
    }
    return started;
  }

  private arm(delayMs: number): void {
    this.timer = setTimeout(() => {
      try {
        this.tick();
      } catch (error) {
        this.warn(`the Scheduler failed: ${(error as Error).message}`);
      }
      const now = this.now();
      const soonest = Math.min(
        ...this.schedules.map((s) => this.ctx.store.scheduleRuns.get(s.id)?.nextRunAt ?? Number.POSITIVE_INFINITY),
      );
      this.arm(Math.max(0, Math.min(soonest - now, this.options.maxSleepMs ?? 60_000)));
    }, delayMs);
    this.timer.unref?.();
  }
}
