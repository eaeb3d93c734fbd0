// Callers: tokens of the bridge besides the host owner's, each seeing only the tasks of its spaces (P1.20, P10.08).
// Only the owner's token manages them; a caller's token is shown once, when it is made.
import { z } from 'zod';
import { empty, Id, NonBlank, op } from './operation';

export const CALLER_ROLES = ['person', 'script', 'agent'] as const;
export const CallerRole = z.enum(CALLER_ROLES);
export type CallerRole = z.infer<typeof CallerRole>;

/** The spaces whose tasks a caller sees: their ids (as GET /spaces lists them), or every space, present and future. */
export const CallerSpaces = z.union([z.literal('all'), z.array(Id).min(1).max(1000)]);
export type CallerSpaces = z.infer<typeof CallerSpaces>;

export const Caller = z.object({ id: z.string(), name: z.string(), spaces: CallerSpaces, role: CallerRole });
export type Caller = z.infer<typeof Caller>;

export const callerOperations = {
  /** A new caller; `token` is its bearer token, shown this once (only its hash is kept). */
  createCaller: op({
    method: 'POST',
    path: '/callers',
    status: 201,
    input: z.object({ name: NonBlank(200), spaces: CallerSpaces, role: CallerRole }).strict(),
    output: z.object({ caller: Caller, token: z.string() }),
  }),
  /** The callers whose tokens work now (never a token or its hash). */
  listCallers: op({
    method: 'GET',
    path: '/callers',
    status: 200,
    input: empty,
    output: z.object({ callers: z.array(Caller) }),
  }),
  /** Revokes a caller at once: its next request is 401 and its open event streams end. */
  revokeCaller: op({
    method: 'DELETE',
    path: '/callers/:callerId',
    status: 200,
    input: z.object({ callerId: Id }).strict(),
    output: z.object({ caller: Caller }),
  }),
};
