// A job's journal with write-behind for the agent loop's steps. The next request to the model waits on a step's
// record, the model's reply does not: stepBehind runs the record now (its conversation and transcript), holds what it
// writes to the journal, and commits that in one transaction on the next turn of the event loop — once the request
// has gone out — or before the journal is used for anything else, whichever comes first. Live events sent meanwhile
// wait behind the held writes. So the store sees every write, and subscribers every event, in the order the run made
// them; only the commit moves, by less than a turn of the loop.
//
// A crash before the commit leaves what a crash between a step's transcript append and its transaction always left:
// the transcript has the step, so a resumed run goes on from it; the log (the chat) lacks its answers.
import { type LoopState, stateAsOfNow } from './guards/loop-state';
import type { JobJournal } from './job-journal';

export interface WriteBehindJournal extends JobJournal {
  /**
   * Runs `record` now and holds its writes (step, append, publish, transient, saveGuards) for one transaction, as
   * above. An append made in it returns no seq (NaN): a step's entries are not read back while it is recorded. A
   * record that throws writes nothing. Other writes in it are refused (they would commit before the step's).
   */
  stepBehind<T>(record: () => T): T;
  /** Commits the held writes now; throws what their commit threw (now, or on the turn of the loop that tried it). */
  settle(): void;
}

type Method = keyof JobJournal;
/** What a step's record may write: held with it. */
const HELD: ReadonlySet<PropertyKey> = new Set<Method>(['append', 'publish', 'transient', 'saveGuards']);
/** What a step's record may read meanwhile: none of it is what the record writes. */
const READS: ReadonlySet<PropertyKey> = new Set<Method>([
  'lastInvokeSeq',
  'turnOfCall',
  'invokes',
  'rewinds',
  'guards',
  'otherJob',
  'taskJobs',
  'otherTask',
  'jobComments',
  'taskComments',
  'undeliveredInterjections',
  'toolRequests',
  'packageRequests',
  'activeGrants',
  'childJobs',
  'openChildCount',
]);

export function writeBehind(journal: JobJournal): WriteBehindJournal {
  /** The writes of the record running in stepBehind; null outside one. */
  let recording: (() => void)[] | null = null;
  /** A recorded step's writes, not yet committed. */
  let held: (() => void)[] | null = null;
  let failure: { error: unknown } | null = null;
  let commitSoon: NodeJS.Immediate | undefined;

  const settle = (): void => {
    clearImmediate(commitSoon);
    commitSoon = undefined;
    if (failure) {
      const { error } = failure;
      failure = null;
      throw error;
    }
    const writes = held;
    if (writes === null) return;
    held = null;
    journal.step(() => {
      for (const write of writes) write();
    });
  };

  const stepBehind = <T>(record: () => T): T => {
    if (recording) return record();
    settle();
    const writes: (() => void)[] = [];
    recording = writes;
    let result: T;
    try {
      result = record();
    } finally {
      recording = null;
    }
    if (writes.length > 0) {
      held = writes;
      commitSoon = setImmediate(() => {
        try {
          settle();
        } catch (error) {
          // No one to throw to on this turn of the loop: the run's next use of the journal throws it.
          failure = { error };
        }
      });
    }
    return result;
  };

  /** A write for later, with what it would have read now: its time, and the guards' state as it is now. */
  const hold = (key: PropertyKey, write: (...args: never[]) => unknown, args: unknown[]): (() => void) => {
    if (key === 'append') {
      const [entry, now] = args as Parameters<JobJournal['append']>;
      const at = now ?? Date.now();
      return () => journal.append(entry, at);
    }
    if (key === 'saveGuards') {
      const [state, changes] = args as Parameters<JobJournal['saveGuards']>;
      const copy: LoopState = stateAsOfNow(state);
      return () => journal.saveGuards(copy, changes);
    }
    return () => Reflect.apply(write, journal, args);
  };

  const wrapped = new Map<PropertyKey, (...args: unknown[]) => unknown>();
  const wrap = (key: PropertyKey, method: (...args: never[]) => unknown) => {
    const own = (...args: unknown[]): unknown => {
      if (recording) {
        if (key === 'step') return (args[0] as () => unknown)();
        if (HELD.has(key)) {
          recording.push(hold(key, method, args));
          return key === 'append' ? Number.NaN : undefined;
        }
        if (READS.has(key)) return Reflect.apply(method, journal, args);
        throw new Error(`journal.${String(key)} while a step's writes are held: it would commit before them`);
      }
      if (held && key === 'transient') {
        held.push(hold(key, method, args));
        return undefined;
      }
      settle();
      return Reflect.apply(method, journal, args);
    };
    wrapped.set(key, own);
    return own;
  };

  return new Proxy(journal as WriteBehindJournal, {
    get(target, key) {
      if (key === 'stepBehind') return stepBehind;
      if (key === 'settle') return settle;
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return wrapped.get(key) ?? wrap(key, value as (...args: never[]) => unknown);
    },
  });
}
