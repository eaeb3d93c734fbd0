// Migration 4: how a task's piece was chosen: given by the caller, pinned by its space, the default, or by the LLM
// router ('route': the router has not run yet; its first job asks it before starting).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 4;
export const name = 'piece-choice';

export const sql = `
  ALTER TABLE tasks ADD COLUMN piece_choice TEXT NOT NULL DEFAULT 'given'
    CHECK (piece_choice IN ('given', 'pinned', 'default', 'route', 'routed'));
  `;
