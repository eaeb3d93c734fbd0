// Migration 12: what an approval card shows of a tool request, as JSON the UI words in the person's language (a
// command: its text, folder, time limit, hosts and whether it runs outside the sandbox); NULL for a tool that gives
// none (the card shows the summary), and for every request made before this version.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 12;
export const name = 'tool-request-display';

export const sql = `
  ALTER TABLE tool_requests ADD COLUMN display_json TEXT CHECK (display_json IS NULL OR json_valid(display_json));
  `;
