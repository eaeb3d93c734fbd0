// Migration 20: reserved for another change of issue 28 (its own branch holds the real one); empty here so that 21
// follows 20 without a gap. At the merge this file gives way to that branch's 0020.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 20;
export const name = 'reserved';

export const sql = '';
