// The listTasks cursor: where the page before ended, which version of the list made it and for which filters, as one
// opaque base64url token. A client never reads it; a token of another version, of other filters or not one this host
// could have made is refused with the reason (400), never read as some other position.
import crypto from 'node:crypto';
import { MaestroError } from '../../src-shared/errors';
import type { TaskPageQuery, TaskPosition } from '../db/repos/task-pages';

/** Bumped whenever the order or the position's meaning changes, so an older client's cursor is refused. */
const CURSOR_VERSION = 1;

type Filters = Pick<TaskPageQuery, 'statuses' | 'archived' | 'search' | 'spaces'>;

/** A short digest of the filters, so a cursor cannot be carried over to a list it did not come from. */
const filterKey = (f: Filters) =>
  crypto
    .createHash('sha256')
    .update(
      JSON.stringify([
        f.statuses ? [...f.statuses].sort() : null,
        f.archived ?? null,
        f.search ?? null,
        f.spaces ? [...f.spaces].sort() : null,
      ]),
    )
    .digest('base64url')
    .slice(0, 12);

export function encodeTaskCursor(position: TaskPosition, filters: Filters): string {
  const body = [CURSOR_VERSION, position.createdAt, position.row, filterKey(filters)];
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

const refused = (why: string) =>
  new MaestroError('invalid_input', `cursor: ${why}`, [{ path: ['cursor'], message: why }]);

export function decodeTaskCursor(cursor: string, filters: Filters): TaskPosition {
  let body: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refused('not a cursor this host made (it does not decode); list again from the first page');
  }
  if (!Array.isArray(body) || typeof body[0] !== 'number') {
    throw refused('not a cursor this host made (its form is unknown); list again from the first page');
  }
  if (body[0] !== CURSOR_VERSION) {
    throw refused(
      `made by another version of the list (${body[0]}, this one is ${CURSOR_VERSION}); list again from the first page`,
    );
  }
  const [, createdAt, row, key] = body as unknown[];
  if (!isCount(createdAt) || !isCount(row) || typeof key !== 'string' || body.length !== 4) {
    throw refused('not a cursor this host made (its position is malformed); list again from the first page');
  }
  if (key !== filterKey(filters)) {
    throw refused(
      'made for other filters (status, archived, q or space); keep the filters of its first page or start again',
    );
  }
  return { createdAt, row };
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
