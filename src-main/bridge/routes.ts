// HTTP routes derived from the contract: method + path pattern → operation, path params pulled into the input.
import { contract, OPERATION_NAMES, type OperationName, pathParams } from '../../src-shared/contract';

export interface Route {
  name: OperationName;
  method: string;
  pattern: RegExp;
  params: string[];
  status: number;
}

export const ROUTES: Route[] = OPERATION_NAMES.map((name) => {
  const { method, path, status } = contract[name];
  const pattern = new RegExp(`^${path.replace(/:(\w+)/g, '([^/]+)')}$`);
  return { name, method, pattern, params: pathParams(path), status };
});

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'wrong_method'; allowed: string[] }
  | { kind: 'none' };

/** `pathname` is relative to /api/local. */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const allowed: string[] = [];
  for (const route of ROUTES) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    if (route.method !== method) {
      allowed.push(route.method);
      continue;
    }
    const params: Record<string, string> = {};
    for (const [i, p] of route.params.entries()) {
      const value = decodePart(m[i + 1] as string);
      if (value === undefined) return { kind: 'none' };
      params[p] = value;
    }
    return { kind: 'found', route, params };
  }
  return allowed.length > 0 ? { kind: 'wrong_method', allowed: [...new Set(allowed)].sort() } : { kind: 'none' };
}

/** A percent-decoded path segment; undefined when its encoding is malformed. */
function decodePart(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
