// Migration 11: what a comment carries besides its words, as JSON the UI reads without parsing prose — the choices a
// question offers (quick replies, a JSON array of strings) and the files attached to an instruction (a JSON array of
// { name, mediaType, bytes }; the bytes stay in the task's runtime dir). NULL when there are none, and for every
// comment written before this version.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 11;
export const name = 'comment-choices-attachments';

export const sql = `
  ALTER TABLE comments ADD COLUMN choices_json TEXT CHECK (choices_json IS NULL OR json_valid(choices_json));
  ALTER TABLE comments ADD COLUMN attachments_json TEXT CHECK (attachments_json IS NULL OR json_valid(attachments_json));
  `;
