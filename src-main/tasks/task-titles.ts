// Names the tasks people start: after createTask, one title request to the task's profile runs beside its first job
// (never in its way); a usable answer replaces the first-line title the task was created with, unless that title has
// changed meanwhile — a person's rename always wins — and task.changed tells the windows. A failure leaves the first
// line, said in one log line without the key.
import type { Task } from '../../src-shared/entities';
import type { Store } from '../db/store';
import type { LlmProfile, ProfileRegistry } from '../llm/profiles';
import { requestTitle, type TitleOutcome } from './title-request';

export type TitleResult = TitleOutcome | { ok: false; reason: 'no profile' | 'renamed' | 'gone' | 'closed' };

export class TaskTitles {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<TitleResult> }>();
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly profiles: ProfileRegistry,
    // An info line, not a warning: the first line is the designed fallback, and nothing waits on the title.
    private readonly log: (line: string) => void = (line) => console.info(line),
  ) {}

  /** Starts naming `task` (created with its first-line title); the promise is for tests and never rejects. */
  name(task: Pick<Task, 'id' | 'title' | 'instruction' | 'profile'>): Promise<TitleResult> {
    if (this.closed) return Promise.resolve({ ok: false, reason: 'closed' });
    let profile: LlmProfile | undefined;
    try {
      profile = task.profile ? this.profiles.get(task.profile) : undefined;
    } catch (error) {
      // A key that cannot be opened is the job's to report; the task keeps its first line.
      this.log(`task ${task.id} keeps its first line as its title: ${(error as Error).message}`);
      return Promise.resolve({ ok: false, reason: 'no profile' });
    }
    if (!profile) return Promise.resolve({ ok: false, reason: 'no profile' });
    const abort = new AbortController();
    const done = requestTitle(profile, task.instruction, abort.signal)
      .then((outcome) => this.apply(task, outcome))
      .catch((error: unknown) => ({ ok: false as const, reason: (error as Error).message }))
      .then((result) => {
        this.running.delete(task.id);
        if (!result.ok && result.reason !== 'renamed' && result.reason !== 'closed') {
          this.log(`task ${task.id} keeps its first line as its title: ${result.reason}`);
        }
        return result;
      });
    this.running.set(task.id, { abort, done });
    return done;
  }

  /** Stops the requests under way (the DB is about to close) and waits for them to settle. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.running.values()];
    for (const r of all) r.abort.abort();
    await Promise.all(all.map((r) => r.done));
  }

  private apply(task: Pick<Task, 'id' | 'title'>, outcome: TitleOutcome): TitleResult {
    if (!outcome.ok) return outcome;
    if (this.closed) return { ok: false, reason: 'closed' };
    return this.store.transact((): TitleResult => {
      const current = this.store.tasks.get(task.id);
      if (!current) return { ok: false, reason: 'gone' };
      // Compare-and-set on the title it was created with: a rename made meanwhile is the person's, and stays.
      if (current.title !== task.title) return { ok: false, reason: 'renamed' };
      if (outcome.title !== current.title) {
        this.store.tasks.rename(task.id, outcome.title);
        const renamed = this.store.tasks.get(task.id) as Task;
        this.store.publish({ type: 'task.changed', taskId: task.id, jobId: null, task: renamed });
      }
      return outcome;
    });
  }
}
