// Migration 6: when an approved tool call or package install started, recorded before it runs, so a restart never
// runs it a second time (a call that started and left no result was interrupted; its effects are unknown).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 6;
export const name = 'approved-call-started';

export const sql = `
  ALTER TABLE tool_requests ADD COLUMN started_at INTEGER;
  ALTER TABLE package_requests ADD COLUMN started_at INTEGER;
  `;
