// Migration 24: a lesson may name the earlier lesson it contradicts (issue 26 point 2: "a lesson … contradicted by a
// later one is offered for retirement"). A Reflection that proposes one against a lesson already kept says which; once
// a person approves the later one, the earlier is offered for retirement. Gone with the earlier lesson (SET NULL).
// Frozen: never edited after it ships; a change is a new migration.

export const version = 24;
export const name = 'lesson-replaces';

export const sql = `
  ALTER TABLE lessons ADD COLUMN replaces TEXT REFERENCES lessons(id) ON DELETE SET NULL;
  CREATE INDEX lessons_by_replaces ON lessons(replaces);
`;
