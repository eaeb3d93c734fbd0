// The bridge's bearer token: who may call /api/local. Compared in constant time; taken from the Authorization header,
// or from `?token=` on the event stream only (an EventSource cannot send headers).
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { API_PREFIX, EVENTS_PATH } from '../../src-shared/contract';

/** Whether a request carries `token`; throws for a token too short to guard anything. */
export function bearerGate(token: string): (req: IncomingMessage, url: URL) => boolean {
  if (token.length < 16) throw new Error('the bridge token must be at least 16 characters');
  const expected = Buffer.from(token);
  return (req, url) => {
    const given = givenToken(req, url);
    if (given === undefined) return false;
    const bytes = Buffer.from(given);
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
}

/** The bearer token the request carries, if any (a caller's or the owner's). */
export function givenToken(req: IncomingMessage, url: URL): string | undefined {
  const header = req.headers.authorization;
  if (header !== undefined) return /^Bearer +(\S+) *$/i.exec(header)?.[1];
  return url.pathname === API_PREFIX + EVENTS_PATH ? (url.searchParams.get('token') ?? undefined) : undefined;
}
