// The loop guards' state as the journal stores it (migration 25): the call counts a row each, so a step writes only
// the counts it changed, not the whole map; a state stored before keeps its counts in its JSON and reads the same;
// counts a new Invoke cleared are gone from the rows too. On both dialects.
import { describe, expect, it } from 'vitest';
import { insertJob, insertTask, storeDialects, tempStore, useStoreDialect } from '../../test-support/db';
import type { Store } from '../db/store';
import { LoopGuards } from '../engine/guards/loop-guards';
import { freshLoopState, type LoopState } from '../engine/guards/loop-state';
import { DEFAULT_LIMITS } from '../engine/job-run';
import { storeJournal } from './journal';

function journalOf(store: Store) {
  const taskId = insertTask(store);
  const job = insertJob(store, taskId);
  const task = store.tasks.get(taskId);
  if (!task) throw new Error('no task');
  return { jobId: job.id, journal: () => storeJournal(store, task, { ...job, pendingInvoke: null }) };
}

const rows = (store: Store, jobId: string) =>
  store.db.prepare('SELECT call, times FROM job_guard_calls WHERE job_id = ? ORDER BY call').all(jobId);

describe.each(storeDialects())('job guards in the store (%s)', (dialect) => {
  useStoreDialect(dialect);

  it('a step writes the counts it changed; the state JSON holds none; a later run reads the same state back', () => {
    const store = tempStore();
    const { jobId, journal } = journalOf(store);
    const run = journal();
    const state: LoopState = { ...freshLoopState(), entered: 1, calls: {} };
    for (let i = 0; i < 200; i++) state.calls[`call${String(i).padStart(3, '0')}`] = 1;
    run.saveGuards(state);
    expect(rows(store, jobId)).toHaveLength(200);

    // One more call and one repeated: two rows written, none of the other 199 touched.
    const written: string[] = [];
    const { putCall } = store.jobGuards;
    store.jobGuards.putCall = (job, call, times) => {
      written.push(`${call}=${times}`);
      putCall(job, call, times);
    };
    state.calls.call007 = 2;
    state.calls.new = 1;
    run.saveGuards(state);
    expect(written.sort()).toEqual(['call007=2', 'new=1']);
    expect(JSON.parse(store.jobGuards.get(jobId)?.state ?? 'null').calls).toEqual({});

    // A new run of the job (a retry, a restart) reads what was stored.
    expect(journal().guards()).toEqual(state);
  });

  it('a state stored before migration 25 (counts in its JSON) reads the same, and its next save moves them to rows', () => {
    const store = tempStore();
    const { jobId, journal } = journalOf(store);
    const old: LoopState = { ...freshLoopState(), entered: 2, calls: { a: 2, b: 1 } };
    store.jobGuards.put(jobId, JSON.stringify(old));
    const run = journal();
    const state = run.guards();
    expect(state).toEqual(old);
    if (!state) throw new Error('no state');
    state.calls.b = 2;
    run.saveGuards(state);
    expect(rows(store, jobId)).toEqual([
      { call: 'a', times: 2 },
      { call: 'b', times: 2 },
    ]);
    expect(journal().guards()).toEqual({ ...old, calls: { a: 2, b: 2 } });
  });

  it('counts a new Invoke cleared leave the rows; a failed save leaves the stored state as it was', () => {
    const store = tempStore();
    const { jobId, journal } = journalOf(store);
    const run = journal();
    const state: LoopState = { ...freshLoopState(), entered: 1, calls: { a: 1, b: 3 } };
    run.saveGuards(state);
    run.saveGuards({ ...state, calls: { c: 1 } });
    expect(rows(store, jobId)).toEqual([{ call: 'c', times: 1 }]);

    const before = journal().guards();
    expect(() => run.saveGuards({ ...state, calls: { c: 2, ['x'.repeat(101)]: 1 } })).toThrow(/CHECK|check/);
    expect(journal().guards()).toEqual(before);
    // The run's next save writes what the failed one could not.
    run.saveGuards({ ...state, calls: { c: 2 } });
    expect(rows(store, jobId)).toEqual([{ call: 'c', times: 2 }]);
  });

  it("a save given the guards' changes reads only the calls counted since the last one, until a new Invoke", () => {
    const store = tempStore();
    const { jobId, journal } = journalOf(store);
    const run = journal();
    const piece = { maxMovements: 9, revisitLimit: 9 };
    const guards = new LoopGuards({ ...freshLoopState(), entered: 1 }, piece, DEFAULT_LIMITS);
    const save = () => run.saveGuards(guards.state, guards.takeCallChanges());
    for (let i = 0; i < 300; i++) guards.calls.count(`read ${i}`);
    save();
    expect(rows(store, jobId)).toHaveLength(300);

    // What the save reads of the counts: the guard counts into the same object the proxy shows.
    const read: string[] = [];
    const counts = guards.state.calls;
    guards.state.calls = new Proxy(counts, {
      get: (target, key) => {
        read.push(String(key));
        return Reflect.get(target, key);
      },
      ownKeys: (target) => {
        read.push('(every call)');
        return Reflect.ownKeys(target);
      },
    });
    guards.calls.count('read 7');
    guards.calls.count('read 300');
    save();
    expect(read).toHaveLength(2);
    expect(rows(store, jobId)).toHaveLength(301);
    expect(journal().guards()?.calls).toEqual(counts);

    // A new Invoke clears the counts: every row is compared, and goes.
    read.length = 0;
    guards.newInvoke();
    guards.calls.count('read 1');
    save();
    expect(read).toContain('(every call)');
    expect(rows(store, jobId)).toHaveLength(1);
    expect(journal().guards()?.calls).toEqual(counts);
  });
});
