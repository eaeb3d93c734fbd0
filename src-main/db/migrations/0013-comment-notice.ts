// Migration 13: what a comment the system wrote says, as a code with its parameters (JSON) that the UI words in the
// person's language — a cancel, a step to do in the browser, an MCP server waiting for a token; the body keeps the
// English text for the model, the API and the log. NULL for every other comment and for every one before this version.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 13;
export const name = 'comment-notice';

export const sql = `
  ALTER TABLE comments ADD COLUMN notice_json TEXT CHECK (notice_json IS NULL OR json_valid(notice_json));
  `;
