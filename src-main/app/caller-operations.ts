// POST /callers, GET /callers, DELETE /callers/:callerId: the bridge's callers, made with a token shown once (only its
// SHA-256 is stored), and revoked at once — the revocation is told to whoever holds the caller's open streams.
import { createHash, randomBytes } from 'node:crypto';
import type { OpOutput, OpParsedInput } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { callersRepo } from '../db/repos/callers';
import type { Store } from '../db/store';
import { notFound } from '../tasks/errors';
import type { AppContext } from './context';

/** 32 random bytes: a token nobody guesses, so one unsalted SHA-256 is a sound way to keep it. */
export const newCallerToken = (): string => `mcl_${randomBytes(32).toString('base64url')}`;
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export function createCaller(ctx: AppContext, input: OpParsedInput<'createCaller'>): OpOutput<'createCaller'> {
  const { store } = ctx;
  return store.transact(() => {
    if (input.spaces !== 'all') {
      for (const [i, spaceId] of input.spaces.entries()) {
        if (!store.spaces.get(spaceId)) {
          const message = `no space ${spaceId} (GET /spaces lists them)`;
          throw new MaestroError('invalid_input', `spaces.${i}: ${message}`, [{ path: ['spaces', i], message }]);
        }
      }
    }
    const token = newCallerToken();
    const spaces = input.spaces === 'all' ? 'all' : [...new Set(input.spaces)];
    const caller = callersRepo(store.db).insert({ name: input.name, role: input.role, spaces }, tokenHash(token));
    return { caller, token };
  });
}

export function listCallers(ctx: AppContext): OpOutput<'listCallers'> {
  return { callers: callersRepo(ctx.store.db).list() };
}

export function revokeCaller(ctx: AppContext, { callerId }: OpParsedInput<'revokeCaller'>): OpOutput<'revokeCaller'> {
  const caller = callersRepo(ctx.store.db).revoke(callerId);
  if (!caller) throw notFound('caller', callerId);
  for (const listener of [...listenersOf(ctx.store)]) listener(caller.id);
  return { caller };
}

type RevokedListener = (callerId: string) => void;
const revokedListeners = new WeakMap<Store, Set<RevokedListener>>();
const listenersOf = (store: Store): Set<RevokedListener> => {
  let set = revokedListeners.get(store);
  if (!set) {
    set = new Set();
    revokedListeners.set(store, set);
  }
  return set;
};

/** Calls `listener` with the id of each caller revoked on this host; answers the disposer. */
export function onCallerRevoked(store: Store, listener: RevokedListener): () => void {
  const set = listenersOf(store);
  set.add(listener);
  return () => set.delete(listener);
}
