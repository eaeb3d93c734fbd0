// Write-behind for the loop's steps, over the real store journal: a step's writes commit on the next turn of the event
// loop in one transaction, or before any other use of the journal; live events wait behind them; the guards' state is
// saved as it was; a write that would jump the queue is refused; a failed commit changes nothing and reaches the run.
import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { MaestroEvent } from '../../src-shared/events';
import { insertJob, insertTask, storeDialects, tempStore, useStoreDialect } from '../../test-support/db';
import type { Store } from '../db/store';
import { storeJournal } from '../jobs/journal';
import { freshCounts, freshLoopState, type LoopState } from './guards/loop-state';
import { writeBehind } from './write-behind';

function journalOf(store: Store) {
  const taskId = insertTask(store);
  const job = insertJob(store, taskId);
  const task = store.tasks.get(taskId);
  if (!task) throw new Error('no task');
  const seen: string[] = [];
  store.subscribe((e: MaestroEvent) => {
    if (e.type === 'tool.finished' || e.type === 'TurnStart') seen.push(e.type);
  });
  const journal = writeBehind(storeJournal(store, task, { ...job, pendingInvoke: null }));
  const entries = () =>
    (
      store.db.prepare('SELECT kind FROM log_entries WHERE task_id = ? ORDER BY seq').all(taskId) as { kind: string }[]
    ).map((r) => r.kind);
  const stored = () =>
    (store.db.prepare('SELECT type FROM events WHERE task_id = ? ORDER BY seq').all(taskId) as { type: string }[])
      .map((r) => r.type)
      .filter((t) => t === 'tool.finished');
  return { taskId, jobId: job.id, journal, seen, entries, stored };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

type Fixture = ReturnType<typeof journalOf>;

/** A step as the loop records one: a ToolTurn, its event, a live event, the guards. */
function recordStep({ journal, taskId, jobId }: Fixture, state: LoopState = freshLoopState()) {
  return journal.stepBehind(() => {
    journal.append({ kind: 'ToolTurn', invokeSeq: null, agentTurnSeq: null, body: { result: 'x'.repeat(20_000) } });
    journal.publish({ type: 'tool.finished', taskId, jobId, callId: 'c1', name: 'probe', ok: true, preview: 'x' });
    journal.transient({ type: 'TurnStart', taskId, jobId, turnCount: 1 });
    journal.saveGuards(state);
    return 'recorded';
  });
}

describe.each(storeDialects())('write-behind over the store journal (%s)', (dialect) => {
  useStoreDialect(dialect);

  it("P4.39 a step's writes are held until the next turn of the event loop, then commit together, events in order", async () => {
    const store = tempStore();
    const f = journalOf(store);
    expect(recordStep(f)).toBe('recorded');
    // The request goes out on this turn: nothing of the step is stored or sent yet.
    expect(f.entries()).toEqual([]);
    expect(f.stored()).toEqual([]);
    expect(f.seen).toEqual([]);
    expect(store.jobGuards.get(f.jobId)).toBeUndefined();
    f.journal.transient({ type: 'TurnStart', taskId: f.taskId, jobId: f.jobId, turnCount: 2 });
    expect(f.seen).toEqual([]);

    await nextTurn();
    expect(f.entries()).toEqual(['ToolTurn']);
    expect(f.stored()).toEqual(['tool.finished']);
    // The next turn's live event, sent while the step was held, comes after the step's own.
    expect(f.seen).toEqual(['tool.finished', 'TurnStart', 'TurnStart']);
    expect(store.jobGuards.get(f.jobId)).toBeDefined();
  });

  it('any other use of the journal commits the held step first, reads included', () => {
    const store = tempStore();
    const f = journalOf(store);
    recordStep(f);
    expect(f.journal.turnOfCall('c1')).toBeNull(); // a read: the step is committed before it runs
    expect(f.entries()).toEqual(['ToolTurn']);
    f.journal.append({ kind: 'SystemTurn', invokeSeq: null, agentTurnSeq: null, body: { text: 'next' } });
    expect(f.entries()).toEqual(['ToolTurn', 'SystemTurn']);
    expect(f.seen).toEqual(['tool.finished', 'TurnStart']);
  });
});

describe('write-behind: what a held step may not do, and a commit that fails', () => {
  it("saves the guards' state as it was when the step was recorded, not as the next iteration changed it", () => {
    const store = tempStore();
    const f = journalOf(store);
    const state: LoopState = { ...freshLoopState(), entered: 1, history: ['a'], movement: freshCounts('a') };
    recordStep(f, state);
    // The next iteration starts (the iteration guard counts it) before the held step commits.
    (state.movement as { iterations: number }).iterations = 7;
    state.history.push('b');
    f.journal.settle();
    expect(f.journal.guards()).toMatchObject({ entered: 1, history: ['a'], movement: { name: 'a', iterations: 0 } });
  });

  it('refuses a write that is not part of a step, and a record that throws writes nothing', () => {
    const store = tempStore();
    const f = journalOf(store);
    expect(() =>
      f.journal.stepBehind(() => {
        f.journal.append({ kind: 'ToolTurn', invokeSeq: null, agentTurnSeq: null, body: {} });
        f.journal.invokeOpened();
      }),
    ).toThrow("journal.invokeOpened while a step's writes are held: it would commit before them");
    f.journal.settle();
    expect(f.entries()).toEqual([]);
    expect(f.seen).toEqual([]);
  });

  it('a commit that fails on its turn of the loop (a full database) stores nothing and is thrown at the next use', async () => {
    const store = tempStore();
    const f = journalOf(store);
    const before = f.entries();
    // SQLite's own limit: the file may not grow, so the step's 20 KB ToolTurn cannot be written.
    const db = store.db as Database;
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true })}`);
    recordStep(f);
    await nextTurn(); // the commit fails here, with no caller to throw to
    expect(f.entries()).toEqual(before);
    expect(f.stored()).toEqual([]);
    expect(f.seen).toEqual([]);
    expect(() => f.journal.lastInvokeSeq()).toThrow(/full/);
    // Thrown once: the run ends on it, and the journal is usable again (the step is gone, as its transaction is).
    db.pragma('max_page_count = 1073741823');
    expect(f.journal.lastInvokeSeq()).toBeNull();
    expect(f.entries()).toEqual(before);
  });
});
