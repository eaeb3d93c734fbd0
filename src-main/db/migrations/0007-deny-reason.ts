// Migration 7: why a person denied a tool call or a package install, in their words; the model gets it in the call's
// result. NULL when they gave none (and for every request decided before this version).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 7;
export const name = 'deny-reason';

export const sql = `
  ALTER TABLE tool_requests ADD COLUMN deny_reason TEXT;
  ALTER TABLE package_requests ADD COLUMN deny_reason TEXT;
  `;
