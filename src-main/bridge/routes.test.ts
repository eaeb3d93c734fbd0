// Every contract operation has an HTTP route equal to bridge-api.md's table, and a handler (architecture rule 1).
import { describe, expect, it } from 'vitest';
import { contract, OPERATION_NAMES } from '../../src-shared/contract';
import { operations } from '../app/operations';
import { matchRoute, ROUTES } from './routes';

/** bridge-api.md "Calling it", row by row (GET /events is served beside the contract, see sse.ts). */
const BRIDGE_API_TABLE = [
  ['GET', '/health', 200],
  ['GET', '/pieces', 200],
  ['POST', '/tasks', 201],
  ['GET', '/tasks', 200],
  ['GET', '/tasks/:id', 200],
  ['POST', '/tasks/:id/comments', 201],
  ['POST', '/tasks/:id/continue', 201],
  ['POST', '/tasks/:id/cancel', 200],
  ['GET', '/tasks/:id/tool-requests', 200],
  ['POST', '/tasks/:id/tool-requests/:rid/decide', 200],
  ['GET', '/tasks/:id/package-requests', 200],
  ['POST', '/tasks/:id/package-requests/:rid/decide', 200],
  ['GET', '/tasks/:id/transcript', 200],
  ['GET', '/tasks/:id/usage', 200],
  // Ours, beyond the doc's table: a task's latest persisted events, for the activity timeline.
  ['GET', '/tasks/:id/events', 200],
  // Ours: GET /tasks/:id with only the latest page of comments and the count of older ones, and the page before a
  // comment, so the UI opens a long task without loading every comment (GET /tasks/:id still sends them all).
  ['GET', '/tasks/:id/recent', 200],
  ['GET', '/tasks/:id/comments/before/:commentId', 200],
  // LLM profiles made in the app (bridge-api.md: "Profiles made in the UI are stored in the data dir").
  ['GET', '/profiles', 200],
  ['POST', '/profiles', 201],
  ['POST', '/profiles/:name/delete', 200],
  ['POST', '/profiles/:name/test', 200],
  // The default workspace's Auto Prompter rules, for Settings (spec §4.1).
  ['GET', '/auto-prompter', 200],
  ['POST', '/auto-prompter', 200],
  // Ours: a workspace's MCP servers with their token status (never a token), and saving a token.
  ['GET', '/mcp/servers/:workspacePath', 200],
  ['POST', '/mcp/tokens', 200],
  // Ours: the workspace folders of recent tasks, for the CreateTaskDialog's recent list.
  ['GET', '/workspaces/recent', 200],
  // Ours: for another agent (A2A): create a task and answer when its job has ended or needs a person.
  ['POST', '/tasks/run', 200],
  // Ours: spaces (named persistent workspace folders), renamed or pinned to a piece.
  ['GET', '/spaces', 200],
  ['POST', '/spaces/:spaceId', 200],
  // Ours: a workspace's Tool Policy for Settings, keyed by the folder (URL-encoded) of a space or the default
  // workspace, so the default workspace is editable before its first task; any other folder → 404.
  ['GET', '/tool-policy/:workspacePath', 200],
  ['POST', '/tool-policy', 200],
  // Ours: the app's settings in the data dir (OS notifications), with the data dir's path.
  ['GET', '/settings', 200],
  ['POST', '/settings', 200],
] as const;

/** Param names differ between the doc (`:id`, `:rid`) and the contract (`:taskId`, `:requestId`); shapes must not. */
const shape = (path: string) => path.replace(/:\w+/g, ':param');

describe('contract coverage', () => {
  it('every contract operation has exactly one route, and the routes are bridge-api.md’s table', () => {
    expect(ROUTES.map((r) => r.name).sort()).toEqual([...OPERATION_NAMES].sort());
    const fromContract = OPERATION_NAMES.map(
      (n) => `${contract[n].method} ${shape(contract[n].path)} ${contract[n].status}`,
    );
    const fromDoc = BRIDGE_API_TABLE.map(([method, path, status]) => `${method} ${shape(path)} ${status}`);
    expect(fromContract.sort()).toEqual(fromDoc.sort());
    expect(new Set(fromContract.map((r) => r.split(' ').slice(0, 2).join(' '))).size).toBe(fromContract.length);
  });

  it('every contract operation has a handler, and nothing else does', () => {
    expect(Object.keys(operations).sort()).toEqual([...OPERATION_NAMES].sort());
    for (const name of OPERATION_NAMES) expect(typeof operations[name]).toBe('function');
  });

  it('each route matches its own path with its params and only its method', () => {
    for (const route of ROUTES) {
      const { method, path } = contract[route.name];
      const concrete = path.replace(/:(\w+)/g, (_, p: string) => `${p}-value`);
      const found = matchRoute(method, concrete);
      expect(found.kind).toBe('found');
      if (found.kind !== 'found') continue;
      expect(found.route.name).toBe(route.name);
      expect(found.params).toEqual(Object.fromEntries(route.params.map((p) => [p, `${p}-value`])));
      const other = method === 'GET' ? 'POST' : 'GET';
      const wrong = matchRoute(other, concrete);
      // GET and POST share /tasks, /profiles, /auto-prompter and /settings, and GET /tasks/run is getTask of a task
      // named "run" (a 404); every other path answers one method only.
      if (wrong.kind === 'found')
        expect(['/tasks', '/profiles', '/auto-prompter', '/settings', '/tasks/run']).toContain(concrete);
      else expect(wrong).toEqual({ kind: 'wrong_method', allowed: [method] });
    }
  });

  it('decodes path params and refuses malformed percent-encoding', () => {
    const found = matchRoute('GET', '/tasks/a%20b');
    expect(found.kind === 'found' && found.params).toEqual({ taskId: 'a b' });
    expect(matchRoute('GET', '/tasks/%E0%A4%A').kind).toBe('none');
    expect(matchRoute('GET', '/tasks/a/b').kind).toBe('none');
    expect(matchRoute('GET', '/nope').kind).toBe('none');
  });
});
