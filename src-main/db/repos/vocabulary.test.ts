// P9.24: conversation units are named Invoke / Turn / LlmCall everywhere a person or a stored row can see them —
// never "Run" or "Request" (the semantics note's vocabulary). Checked here against the real schema and the event
// names; the UI's words are checked in src-renderer/src/i18n/vocabulary.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { MaestroEvent, TRANSIENT_EVENT_TYPES } from '../../../src-shared/events';
import { storeDialects, tempStore, useStoreDialect } from '../../../test-support/db';
import type { Store } from '../store';

const UNITS = ['Invoke', 'UserTurn', 'AgentTurn', 'LlmCall', 'ToolTurn', 'SystemTurn'];

let store: Store | undefined;
afterEach(() => store?.close());

describe.each(storeDialects())('P9.24 the vocabulary of the conversation log (%s)', (dialect) => {
  useStoreDialect(dialect);
  it('P9.24 the persisted log kinds are exactly Invoke and the Turns and LlmCall', () => {
    store = tempStore();
    // The CHECK on log_entries.kind as each database keeps it: SQLite's table SQL, PostgreSQL's constraint.
    const list =
      dialect === 'sqlite'
        ? /kind IN \(([^)]*)\)/.exec(
            (store.db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'log_entries'`).get() as { sql: string }).sql,
          )?.[1]
        : (
            store.db
              .prepare(`SELECT pg_get_constraintdef(oid) AS sql FROM pg_constraint
                WHERE conrelid = 'log_entries'::regclass AND contype = 'c' AND pg_get_constraintdef(oid) LIKE '%(kind = ANY%'`)
              .get() as { sql: string }
          ).sql;
    const kinds = [...(list ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    expect(kinds.sort()).toEqual([...UNITS].sort());
  });

  it('P9.24 event names for conversation units use the same words', () => {
    const types = MaestroEvent.options.map((o) => o.shape.type.value as string);
    const unitEvents = types.filter((t) => /Invoke|Turn|LlmCall|Run|Request/.test(t) && !t.includes('_request'));
    expect(unitEvents.sort()).toEqual(['InvokeStart', 'LlmCallEnd', 'LlmCallStart', 'TurnEnd', 'TurnStart']);
    for (const t of TRANSIENT_EVENT_TYPES) expect(t).not.toMatch(/Run|Request/);
  });
});
