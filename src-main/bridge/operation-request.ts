// One contract operation over HTTP: the route of the method and path, the JSON body (an object; path parameters
// only in the path) or a GET's query string, the operation's answer with the route's status. A caller's mistake is
// thrown as a MaestroError.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationName } from '../../src-shared/contract';
import { MaestroError } from '../../src-shared/errors';
import { readJson, sendJson } from './json-http';
import { matchRoute } from './routes';

/** Runs an operation for whoever sent the request (the owner, or a caller within its spaces: callers.ts). */
export type OperationInvoker = (name: OperationName, input: Record<string, unknown>) => unknown;

/** `pathname` is below /api/local. */
export async function serveOperation(
  invoke: OperationInvoker,
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: URLSearchParams = new URLSearchParams(),
): Promise<void> {
  const match = matchRoute(req.method ?? 'GET', pathname);
  if (match.kind === 'none') throw new MaestroError('not_found', `no route ${req.method} ${pathname}`);
  if (match.kind === 'wrong_method') {
    res.setHeader('allow', match.allowed.join(', '));
    throw new MaestroError('method_not_allowed', `${req.method} is not allowed on ${pathname}`);
  }
  const body = req.method === 'GET' ? queryInput(query) : await readJson(req);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new MaestroError('invalid_input', 'the body must be a JSON object', [
      { path: [], message: 'must be a JSON object' },
    ]);
  }
  for (const name of match.route.params) {
    if (Object.hasOwn(body, name)) {
      const where = req.method === 'GET' ? 'query' : 'body';
      throw new MaestroError('invalid_input', `${name} belongs in the path, not the ${where}`, [
        { path: [name], message: `belongs in the path, not the ${where}` },
      ]);
    }
  }
  // Awaited so an operation that becomes async still answers with its value.
  const output = await invoke(match.route.name, { ...body, ...match.params });
  sendJson(res, match.route.status, output);
}

/** A GET's input: each query parameter once (a list is one value, comma-separated); the contract's schema parses it. */
function queryInput(query: URLSearchParams): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of query) {
    if (Object.hasOwn(input, key)) {
      throw new MaestroError('invalid_input', `${key} is given twice in the query`, [
        { path: [key], message: 'given twice; a list is one value separated by commas' },
      ]);
    }
    input[key] = value;
  }
  return input;
}
