// The HTTP request of a contract operation, straight from the contract (method, `:params` filled from the input, the
// rest as the JSON body): the one derivation both HTTP clients of the bridge use — the renderer's and main's client of
// a remote host.
import { API_PREFIX, contract, type OperationName, pathParams } from './contract';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Relative to the bridge origin, e.g. /api/local/tasks/t1/comments; a GET's input after `?`. */
  path: string;
  /** JSON body for POST and PATCH; GET and DELETE carry nothing but their path. */
  body?: Record<string, unknown>;
}

/**
 * The request, or the path parameter the input lacks. A GET's other input is its query string (a list as one value,
 * comma-separated); a DELETE carries its path alone.
 */
export function operationRequest(
  name: OperationName,
  input: unknown,
): { ok: true; request: HttpRequest } | { ok: false; missing: string } {
  const { method, path } = contract[name];
  const rest: Record<string, unknown> = { ...(input as Record<string, unknown> | undefined) };
  let filled = path;
  for (const param of pathParams(path)) {
    const value = rest[param];
    if (typeof value !== 'string' || value === '') return { ok: false, missing: param };
    filled = filled.replace(`:${param}`, encodeURIComponent(value));
    delete rest[param];
  }
  const withBody = method === 'POST' || method === 'PATCH';
  if (withBody) return { ok: true, request: { method, path: API_PREFIX + filled, body: rest } };
  const query = method === 'GET' ? queryString(rest) : '';
  return { ok: true, request: { method, path: API_PREFIX + filled + query } };
}

function queryString(input: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    query.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}
