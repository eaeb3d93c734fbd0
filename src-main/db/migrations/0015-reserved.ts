// Migration 15: held for the branch of issue 21 that was given this number (settings files' wait took 16); it does
// nothing here, so the numbers stay without a gap. The merge replaces this file with that branch's migration 15.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 15;
export const name = 'reserved';

export const sql = `
  SELECT 1;
  `;
