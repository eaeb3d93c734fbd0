// Migration 9: what kind of failure a job's error is, as a code the UI can act on (e.g. "the profile's key was
// refused" links to the profile) without reading the English message. NULL for every error without one, and for
// every job that failed before this version. No CHECK: a code this build does not know is shown as the plain error.
// Frozen: never edited after it ships; a change is a new migration.

export const version = 9;
export const name = 'job-error-code';

export const sql = `
  ALTER TABLE jobs ADD COLUMN error_code TEXT;
  `;
