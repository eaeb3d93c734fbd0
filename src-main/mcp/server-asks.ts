// What an MCP server may ask the client during a job (form elicitation, sampling), and whose hooks answer it.
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** What a server asks the client during a job; each throws an Error with a JSON-RPC `code` (refusal) and the reason the server gets. */
export interface ServerAsks {
  elicit(server: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
  sample(server: string, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/**
 * An answer of JSON-RPC error `code` with `message` as it is (an McpError would send its own "MCP error N:" prefix in
 * the message, and the server's SDK adds another): what the server reads is the reason alone.
 */
export function refusal(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Where a job's answers to its servers' requests come from; read at each request (a resumed job replaces them). */
export interface AskHooks {
  onElicit?: ServerAsks['elicit'];
  onSample?: ServerAsks['sample'];
  /** The job's signal: its end (cancel, shutdown) closes what it was asked. */
  signal?: AbortSignal;
}

/** The server's requests answered by whatever `hooks` holds when each arrives; refused when it holds nothing. */
export function asksOf(hooks: AskHooks): ServerAsks {
  // The server may cancel its request (its signal), and the job may end (the job's, read now: a resume replaces it).
  const withJob = (signal: AbortSignal) => (hooks.signal ? AbortSignal.any([signal, hooks.signal]) : signal);
  const none = (what: string) => {
    throw refusal(ErrorCode.InvalidRequest, `MAESTRO has no one to answer ${what} here (no job is running)`);
  };
  return {
    elicit: (server, params, signal) => hooks.onElicit?.(server, params, withJob(signal)) ?? none('an elicitation'),
    sample: (server, params, signal) => hooks.onSample?.(server, params, withJob(signal)) ?? none('a sampling request'),
  };
}

/**
 * A request of `method` with any params: the requests a server sends the client are read here (elicitation.ts,
 * sampling.ts), so that one the SDK's own schema would refuse with a zod dump gets a reason a person can read.
 */
export const anyRequest = (method: string) =>
  z.object({ method: z.literal(method), params: z.record(z.string(), z.unknown()).optional() });
