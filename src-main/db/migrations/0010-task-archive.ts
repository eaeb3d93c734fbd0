// Migration 10: when a person archived a task (the list hides it until they show archived tasks); NULL while it is not
// archived, and for every task made before this version.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 10;
export const name = 'task-archive';

export const sql = `
  ALTER TABLE tasks ADD COLUMN archived_at INTEGER;
  `;
