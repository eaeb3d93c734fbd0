// Row ids (time-sortable, prefixed by what they name) and the ms ↔ ISO conversions used by every mapper.
import { randomBytes } from 'node:crypto';

export const newId = (prefix: string): string =>
  `${prefix}_${Date.now().toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));
