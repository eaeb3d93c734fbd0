// The app itself: whether it answers, and the pieces it can run.
import { z } from 'zod';
import { PieceLoadError, PieceSummary } from '../entities';
import { empty, op } from './operation';

export const appOperations = {
  health: op({
    method: 'GET',
    path: '/health',
    status: 200,
    input: empty,
    // host: the name this host goes by (--host-name, default the machine's name), so a caller sees which one answers.
    output: z.object({ ok: z.literal(true), version: z.string(), host: z.string() }),
  }),
  /**
   * The hosts of this host's database (several share one on PostgreSQL): each says when it was last seen, which
   * workspace folders it runs jobs in and how many it runs now. A host alone on its SQLite file lists itself, seen
   * when it started.
   */
  listHosts: op({
    method: 'GET',
    path: '/hosts',
    status: 200,
    input: empty,
    output: z.object({
      hosts: z.array(
        z.object({
          name: z.string(),
          version: z.string(),
          lastSeenAt: z.string(),
          serves: z.array(z.string()),
          running: z.number().int(),
        }),
      ),
    }),
  }),
  listPieces: op({
    method: 'GET',
    path: '/pieces',
    status: 200,
    input: empty,
    output: z.object({ pieces: z.array(PieceSummary), errors: z.array(PieceLoadError) }),
  }),
};
