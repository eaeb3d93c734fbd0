// Who a request of the bridge comes from: the host's owner (bridge.json's token: everything, as before callers
// existed) or a caller (its token's SHA-256 found among the callers not revoked: only its spaces' tasks). Each caller
// gets its own A2A endpoint, so an agent holding a caller's token sees its spaces' tasks only; a revoked caller's
// endpoint is closed at once.
import type { IncomingMessage } from 'node:http';
import { a2aHost } from '../app/a2a-host';
import { invokeAs } from '../app/caller-invoke';
import { onCallerRevoked, tokenHash } from '../app/caller-operations';
import { CallerView } from '../app/caller-view';
import type { Maestro } from '../app/create-maestro';
import { callersRepo } from '../db/repos/callers';
import { A2aEndpoint } from './a2a-endpoint';
import { bearerGate, givenToken } from './bearer';
import type { OperationInvoker } from './operation-request';
import type { StreamGate } from './sse';

/** How often a caller's open event stream checks that the caller was not revoked behind this host's back. */
export const REVOCATION_RECHECK_MS = 2_000;

export type Principal = { kind: 'owner' } | { kind: 'caller'; view: CallerView };

export class BridgeCallers {
  private readonly isOwner: (req: IncomingMessage, url: URL) => boolean;
  private readonly endpoints = new Map<string, A2aEndpoint>();
  private readonly stopWatching: () => void;

  constructor(
    private readonly maestro: Maestro,
    ownerToken: string,
    private readonly ownerA2a: () => A2aEndpoint,
    private readonly bridgeUrl: () => string,
  ) {
    this.isOwner = bearerGate(ownerToken);
    this.stopWatching = onCallerRevoked(maestro.store, (callerId) => {
      this.endpoints.get(callerId)?.close();
      this.endpoints.delete(callerId);
    });
  }

  /** The request's principal; undefined when it carries no token, or one that is neither the owner's nor a caller's. */
  authenticate(req: IncomingMessage, url: URL): Principal | undefined {
    if (this.isOwner(req, url)) return { kind: 'owner' };
    const token = givenToken(req, url);
    // Looked up by the hash of what was given: the stored hash is never compared byte by byte against a token.
    const caller = token ? callersRepo(this.maestro.store.db).byTokenHash(tokenHash(token)) : undefined;
    return (
      caller && { kind: 'caller', view: new CallerView(this.maestro.store, caller, this.maestro.ctx.defaultWorkspace) }
    );
  }

  invoker(who: Principal): OperationInvoker {
    switch (who.kind) {
      case 'owner':
        return (name, input) => this.maestro.invoke(name, input);
      case 'caller':
        return (name, input) => invokeAs(this.maestro.ctx, who.view, name, input);
    }
  }

  a2a(who: Principal): A2aEndpoint {
    if (who.kind === 'owner') return this.ownerA2a();
    const id = who.view.caller.id;
    let endpoint = this.endpoints.get(id);
    if (!endpoint) {
      endpoint = new A2aEndpoint(a2aHost(this.maestro.ctx, who.view), this.bridgeUrl());
      this.endpoints.set(id, endpoint);
    }
    return endpoint;
  }

  /** The owner's stream carries everything; a caller's only its tasks' events (404 for `?taskId=` of a hidden one). */
  streamGate(who: Principal, taskId: string | undefined): StreamGate | undefined {
    if (who.kind === 'owner') return undefined;
    const { view } = who;
    if (taskId !== undefined) view.requireTask(taskId);
    // A task's space never changes: each task is looked up once per stream (stream deltas come many a second).
    const seen = new Map<string, boolean>();
    return {
      seesTask: (id) => {
        let sees = seen.get(id);
        if (sees === undefined) {
          sees = view.seesTask(id);
          seen.set(id, sees);
        }
        return sees;
      },
      whenRevoked: (end) => {
        const stop = onCallerRevoked(this.maestro.store, (callerId) => {
          if (callerId === view.caller.id) end();
        });
        // A revocation this host was not told of (written to the DB by another process) ends the stream too.
        const recheck = setInterval(() => {
          if (!callersRepo(this.maestro.store.db).get(view.caller.id)) end();
        }, REVOCATION_RECHECK_MS);
        recheck.unref();
        return () => {
          stop();
          clearInterval(recheck);
        };
      },
    };
  }

  close(): void {
    this.stopWatching();
    for (const endpoint of this.endpoints.values()) endpoint.close();
    this.endpoints.clear();
  }
}
