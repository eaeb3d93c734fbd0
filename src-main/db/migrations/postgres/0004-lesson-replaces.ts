// PostgreSQL migration 4 = SQLite migration 24: a lesson may name the earlier lesson it contradicts.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 4;
export const name = 'lesson-replaces';

export const sql = `
  ALTER TABLE lessons ADD COLUMN replaces TEXT COLLATE "C" REFERENCES lessons(id) ON DELETE SET NULL;
  CREATE INDEX lessons_by_replaces ON lessons(replaces);
`;
