// Every contract operation has an HTTP route equal to bridge-api.md's table, and over HTTP each route runs its own
// operation with its path params (architecture rule 1).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contract, OPERATION_NAMES, type OperationName, pathParams } from '../../src-shared/contract';
import { ERROR_STATUS, errorBody } from '../../src-shared/errors';
import { testBridge } from '../../test-support/bridge-harness';
import { tempDir } from '../../test-support/temp-maestro';
import type { Maestro } from '../app/create-maestro';
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
  // Ours: the context gauge (issue 23), beside the usage since it may ask the model server for its list.
  ['GET', '/tasks/:id/context', 200],
  // Ours, beyond the doc's table: a task's latest persisted events, for the activity timeline.
  ['GET', '/tasks/:id/events', 200],
  // Ours: GET /tasks/:id with only the latest page of comments and the count of older ones, and the page before a
  // comment, so the UI opens a long task without loading every comment (GET /tasks/:id still sends them all).
  ['GET', '/tasks/:id/recent', 200],
  ['GET', '/tasks/:id/chat/before/:itemId', 200],
  // LLM profiles made in the app (bridge-api.md: "Profiles made in the UI are stored in the data dir").
  ['GET', '/profiles', 200],
  ['POST', '/profiles', 201],
  ['POST', '/profiles/:name/delete', 200],
  ['POST', '/profiles/:name/test', 200],
  // Ours: the connection test of a profile not saved yet (its model list), for the first-run setup and the form.
  ['POST', '/profiles/models', 200],
  // The default workspace's Auto Prompter rules, for Settings (spec §4.1).
  ['GET', '/auto-prompter', 200],
  ['POST', '/auto-prompter', 200],
  // Ours: a workspace's MCP servers with their token status (never a token), and saving a token.
  ['GET', '/mcp/servers/:workspacePath', 200],
  ['POST', '/mcp/tokens', 200],
  // Ours: a workspace's remote agents (agents.json, for a2a_send) with their token status, and saving a token.
  ['GET', '/agents/remote/:workspacePath', 200],
  ['POST', '/agents/tokens', 200],
  // Ours: a server turned off or on in Settings (kept with the accepted settings), and one started now to check it.
  ['POST', '/mcp/enabled', 200],
  ['POST', '/mcp/check', 200],
  // docs/bridge-routes.md (issue 27): an OAuth sign-in to an HTTP server, and its end by address for a remote host.
  ['POST', '/mcp/sign-in', 200],
  ['POST', '/mcp/sign-in/complete', 200],
  // Ours: a server a person typed in Settings added to the workspace's mcp.json (accepted as written), or removed.
  ['POST', '/mcp/servers', 201],
  ['POST', '/mcp/remove', 200],
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
  // Ours: the SSH targets of a workspace's policy, and the key file each is reached with (sealed by the host).
  ['GET', '/ssh/targets/:workspacePath', 200],
  ['POST', '/ssh/keys', 200],
  // Ours: the app's settings in the data dir (OS notifications), with the data dir's path.
  ['GET', '/settings', 200],
  ['POST', '/settings', 200],
  // Ours: what the data dir takes, and a clean-up now (retention, freed pages, the WAL).
  ['GET', '/storage', 200],
  ['GET', '/hosts', 200],
  ['POST', '/storage/clean-up', 200],
  // Ours: a workspace's settings files changed outside MAESTRO (keyed like the Tool Policy), accepted or rejected.
  ['GET', '/settings-changes/:workspacePath', 200],
  ['POST', '/settings-changes/:workspacePath/accept', 200],
  ['POST', '/settings-changes/:workspacePath/accept-all', 200],
  ['POST', '/settings-changes/:workspacePath/reject', 200],
  // Ours: a job waiting to retry tries again now.
  ['POST', '/tasks/:id/retry-now', 200],
  // Ours: a task renamed, archived or brought back (with its subtasks), or deleted (with them and all of theirs).
  ['PATCH', '/tasks/:id', 200],
  ['POST', '/tasks/:id/archive', 200],
  ['DELETE', '/tasks/:id', 200],
  // Ours: one file attached to a task's instruction, for the chat's thumbnail.
  ['GET', '/tasks/:id/attachments/:name', 200],
  // Ours: the task's grants (what a person approved "for this task", and what each covers), each revocable.
  ['GET', '/tasks/:id/grants', 200],
  ['POST', '/tasks/:id/grants/:grantId/revoke', 200],
  // bridge-api.md: a task's checkpoints, rewind and fork.
  ['GET', '/tasks/:id/checkpoints', 200],
  ['POST', '/tasks/:id/rewind', 200],
  ['POST', '/tasks/:id/fork', 201],
  // Ours: the task's files-changed view, a file reverted, and the checkpoints' disk use.
  ['GET', '/tasks/:id/changes', 200],
  ['POST', '/tasks/:id/changes/revert', 200],
  ['GET', '/checkpoints/usage', 200],
  // bridge-api.md (several hosts): the callers besides the owner, each seeing only its spaces; the owner's to manage.
  ['POST', '/callers', 201],
  ['GET', '/callers', 200],
  ['DELETE', '/callers/:id', 200],
  // docs/bridge-routes.md (P2.08): a task's Reflection on demand, its lessons, every lesson and a person's decision.
  ['POST', '/tasks/:id/reflect', 201],
  ['GET', '/tasks/:id/lessons', 200],
  ['GET', '/lessons', 200],
  ['POST', '/lessons/:id/decide', 200],
  ['POST', '/lessons/:id', 200],
  // docs/bridge-routes.md (issue 27): what a task's MCP servers ask the person while their calls run, and the answer.
  ['GET', '/tasks/:id/mcp-prompts', 200],
  ['POST', '/tasks/:id/mcp-prompts/:pid/answer', 200],
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

  it('over HTTP, every GET route answers exactly what its operation answers in process, path params included', async () => {
    const b = await testBridge();
    const { task } = b.maestro.invoke('createTask', { instruction: 'first' });
    const { comment } = b.maestro.invoke('addComment', { taskId: task.id, body: 'second' });
    const values: Record<string, string> = {
      taskId: task.id,
      itemId: comment.id,
      name: 'no-such-profile',
      workspacePath: b.maestro.ctx.defaultWorkspace ?? tempDir(),
    };
    const gets = OPERATION_NAMES.filter((name) => contract[name].method === 'GET');
    expect(gets.length).toBeGreaterThan(15);
    for (const name of gets) {
      const { path, status } = contract[name];
      const params = Object.fromEntries(pathParams(path).map((p) => [p, values[p] as string]));
      const res = await b.api('GET', concrete(path, params));
      const expected = await inProcess(b.maestro, name, params);
      expect({ status: res.status, body: res.json }, name).toEqual(
        expected.ok
          ? { status, body: expected.value }
          : { status: ERROR_STATUS[expected.error.code], body: { error: expected.error } },
      );
    }
  });

  it('over HTTP, every POST and PATCH route refuses a body its schema refuses, as in process, and changes nothing', async () => {
    const b = await testBridge();
    const { task } = b.maestro.invoke('createTask', { instruction: 'first' });
    const seq = b.maestro.store.events.lastSeq();
    const files = fs.readdirSync(b.maestro.ctx.dataDir).sort();
    for (const name of OPERATION_NAMES.filter((n) => ['POST', 'PATCH'].includes(contract[n].method))) {
      const { method, path } = contract[name];
      const params = Object.fromEntries(pathParams(path).map((p) => [p, p === 'taskId' ? task.id : `${p}-x`]));
      const body = { notAField: true };
      const res = await b.api(method, concrete(path, params), body);
      expect(res.status, name).toBe(400);
      expect(res.json.error.code, name).toBe('invalid_input');
      const expected = await inProcess(b.maestro, name, { ...body, ...params });
      expect(expected.ok ? expected : expected.error, name).toEqual(res.json.error);
    }
    expect(b.maestro.store.events.lastSeq()).toBe(seq);
    expect(fs.readdirSync(b.maestro.ctx.dataDir).sort()).toEqual(files);
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
      // GET and POST share /tasks, /profiles, /auto-prompter, /settings and /callers, GET /tasks/run is getTask of a
      // task named "run" (a 404), and /tasks/:taskId answers GET, PATCH and DELETE; every other path one method only.
      const task = '/tasks/taskId-value';
      if (wrong.kind === 'found')
        expect(['/tasks', '/profiles', '/auto-prompter', '/settings', '/callers', '/tasks/run', task]).toContain(
          concrete,
        );
      else
        expect(wrong).toEqual({
          kind: 'wrong_method',
          allowed: concrete === task ? ['DELETE', 'GET', 'PATCH'] : [method],
        });
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

const concrete = (path: string, params: Record<string, string>) =>
  path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(params[p] ?? ''));

/** The operation's answer in process, as the bridge would send it: its value, or the error body it maps to. */
async function inProcess(maestro: Maestro, name: OperationName, input: Record<string, unknown>) {
  try {
    return { ok: true as const, value: JSON.parse(JSON.stringify(await maestro.invoke(name, input))) as unknown };
  } catch (error) {
    return { ok: false as const, error: errorBody(error) };
  }
}
