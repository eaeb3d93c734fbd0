// Every route the bridge serves is written down: in the published page (shared/design/bridge-api.md, whose routes
// are listed here, since a clone of this repository does not carry it) or in docs/bridge-routes.md; and that page
// names no route the contract does not have.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contract } from '../../src-shared/contract';

const PUBLISHED = [
  'GET /health',
  'GET /pieces',
  'POST /tasks',
  'GET /tasks',
  'GET /tasks/:id',
  'POST /tasks/run',
  'POST /tasks/:id/comments',
  'POST /tasks/:id/continue',
  'POST /tasks/:id/cancel',
  'GET /tasks/:id/tool-requests',
  'POST /tasks/:id/tool-requests/:rid/decide',
  'GET /tasks/:id/package-requests',
  'POST /tasks/:id/package-requests/:rid/decide',
  'GET /tasks/:id/transcript',
  'GET /tasks/:id/usage',
  'GET /tasks/:id/checkpoints',
  'POST /tasks/:id/rewind',
  'POST /tasks/:id/fork',
];

/** Parameter names differ between the pages and the contract (`:id`, `:taskId`): only their places count. */
const shape = (route: string) => route.replace(/:\w+/g, ':_');
const DOC = path.join(__dirname, '../../docs/bridge-routes.md');

describe('the bridge routes, written down', () => {
  it('every operation of the contract is in the published page or in docs/bridge-routes.md, and nothing more', () => {
    const documented = [...fs.readFileSync(DOC, 'utf8').matchAll(/`((?:GET|POST|PATCH|DELETE) \/[^`\s]*)`/g)].map((m) =>
      shape(m[1] as string),
    );
    const served = Object.values(contract).map((op) => shape(`${op.method} ${op.path}`));
    const written = new Set([...PUBLISHED.map(shape), ...documented]);
    expect(served.filter((route) => !written.has(route))).toEqual([]);
    // The page's own extra: the SSE stream (not an operation) and the public agent card.
    const extra = new Set([shape('GET /events'), 'GET /.well-known/agent-card.json', 'POST /api/local/a2a']);
    expect(documented.filter((route) => !served.includes(route) && !extra.has(route))).toEqual([]);
  });
});
