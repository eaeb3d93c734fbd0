// Callers of the bridge against a real server on 127.0.0.1:0 (P1.20, P10.08): a caller's token on a task of a space it
// does not see gets 404 on every route of the contract and writes nothing, its lists hold only its spaces, its event
// stream carries only its tasks and ends when it is revoked, its token is kept only as a hash, and only the owner
// manages callers.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contract, type OperationName } from '../../src-shared/contract';
import { expectErrorShape, pathOf, seedParkedTask, snapshot, VALID_BODY } from '../../test-support/bridge-fixtures';
import { testBridge } from '../../test-support/bridge-harness';
import { seedTasks } from '../../test-support/task-seed';
import { acceptWorkspaceSettings, tempDir } from '../../test-support/temp-maestro';
import { CALLER_SCOPES } from '../app/caller-scope';
import { callersRepo } from '../db/repos/callers';
import { REVOCATION_RECHECK_MS } from './callers';
import { ROUTES } from './routes';
import { REVOKED_FRAME } from './sse';

/** Two spaces, A (the caller's) and B (not), each with a task; B's task waits on a tool and a package request. */
async function twoSpaces() {
  const folderA = fs.realpathSync(tempDir('space-a-'));
  const folderB = fs.realpathSync(tempDir('space-b-'));
  const b = await testBridge({ maestro: { defaultWorkspace: folderB } });
  const seen = b.maestro.invoke('createTask', { instruction: 'in A', workspacePath: folderA });
  const hidden = seedParkedTask(b.maestro); // the host's default folder: B
  const spaceA = b.maestro.store.spaces.byFolder(folderA)?.id as string;
  const spaceB = b.maestro.store.spaces.byFolder(folderB)?.id as string;
  expect(hidden.task.workspacePath).toBe(folderB);
  const made = await b.api('POST', '/callers', { name: 'ci script', spaces: [spaceA], role: 'script' });
  expect(made.status, made.text).toBe(201);
  const token: string = made.json.token;
  const as = (method: string, route: string, body?: unknown) =>
    b.api(method, route, body, { authorization: `Bearer ${token}` });
  return { b, folderA, folderB, spaceA, spaceB, seen, hidden, token, caller: made.json.caller, as };
}

describe('callers: what a caller sees (P1.20, P10.08)', () => {
  it('P1.20 a caller’s GET /tasks pages through its own spaces’ tasks only: full pages however many others there are', async () => {
    const { b, spaceA, spaceB, seen, folderA, folderB, as } = await twoSpaces();
    const ownOlder = seedTasks(b.maestro.store, 3, { from: 1_000, spaceId: spaceA, workspacePath: folderA });
    seedTasks(b.maestro.store, 300, { spaceId: spaceB, workspacePath: folderB });
    const own = [seen.task.id, ...[...ownOlder].reverse()];

    const ids: string[] = [];
    const sizes: number[] = [];
    let next = '/tasks?limit=2';
    for (;;) {
      const page = await as('GET', next);
      expect(page.status, page.text).toBe(200);
      ids.push(...page.json.tasks.map((t: { id: string }) => t.id));
      sizes.push(page.json.tasks.length);
      if (page.json.nextCursor === null) break;
      next = `/tasks?limit=2&cursor=${page.json.nextCursor}`;
    }
    expect({ ids, sizes }).toEqual({ ids: own, sizes: [2, 2] });
    // Another space's tasks asked for by name are none of its business: an empty list, as for a space without tasks.
    expect((await as('GET', `/tasks?space=${spaceB}`)).json).toEqual({ tasks: [], nextCursor: null });
    expect((await as('GET', `/tasks?space=${spaceB},${spaceA}&limit=1`)).json.tasks[0].id).toBe(seen.task.id);
    // The owner may ask for a space's tasks too.
    const owners = await b.api('GET', `/tasks?space=${spaceB}&limit=200`);
    expect(owners.json.tasks).toHaveLength(200);
    expect(owners.json.tasks.every((t: { workspacePath: string }) => t.workspacePath === folderB)).toBe(true);
  });

  it('P1.20 P10.08 every route of the contract with a caller token on a task of a space it does not see → 404, the DB and data dir unchanged; host configuration → 403; creating in another space → 404', async () => {
    const { b, hidden, folderB, spaceB, as } = await twoSpaces();
    const before = snapshot(b.maestro);
    const answered: OperationName[] = [];
    for (const route of ROUTES) {
      const scope = CALLER_SCOPES[route.name];
      // The table says a route of one task exactly when the path names one: a new task route cannot be left open.
      expect(scope.kind === 'task', route.name).toBe(route.params.includes('taskId'));
      const target = pathOf(route.name, { taskId: hidden.task.id, requestId: hidden.tool.id });
      switch (scope.kind) {
        case 'task': {
          const res = await as(route.method, target, VALID_BODY[route.name]);
          expectErrorShape(res, 404, 'not_found');
          expect(res.json.error.message).toBe(`task ${hidden.task.id} does not exist`);
          // An empty body too: the 404 comes before the body is read.
          const bare = await as(route.method, target, route.method === 'GET' ? undefined : {});
          expectErrorShape(bare, 404, 'not_found');
          break;
        }
        case 'owner':
          expectErrorShape(await as(route.method, target, route.method === 'GET' ? undefined : {}), 403, 'forbidden');
          break;
        case 'create':
          for (const body of [
            { ...(VALID_BODY[route.name] as object), workspacePath: folderB },
            { ...(VALID_BODY[route.name] as object), spaceId: spaceB },
            // No folder given: the host's default, B.
            VALID_BODY[route.name],
            { ...(VALID_BODY[route.name] as object), workspacePath: '/no/such/folder' },
          ]) {
            expectErrorShape(await as(route.method, target, body), 404, 'not_found');
          }
          break;
        case 'list':
        case 'open':
          expect((await as(route.method, target)).status, route.name).toBe(200);
          break;
      }
      answered.push(route.name);
      expect(snapshot(b.maestro), `${route.method} ${route.name} wrote something`).toBe(before);
    }
    expect(answered.sort()).toEqual(Object.keys(contract).sort());
    // The same hidden task's event stream, too.
    expectErrorShape(await as('GET', `/events?taskId=${hidden.task.id}`), 404, 'not_found');
    expect(snapshot(b.maestro)).toBe(before);
  });

  it('P1.20 a caller comments on its own task (recorded as its action); continuing a hidden task, or deciding its request through the caller’s own task → 404, the hidden task unchanged', async () => {
    const { b, seen, hidden, caller, as } = await twoSpaces();
    const hiddenBefore = JSON.stringify(b.maestro.invoke('getTask', { taskId: hidden.task.id }));
    // Its own task: a comment is written and recorded as the caller's action.
    const comment = await as('POST', `/tasks/${seen.task.id}/comments`, { body: 'from the script' });
    expect(comment.status, comment.text).toBe(201);
    // A request of the hidden task, named through the caller's own task: not found, nothing decided.
    const cross = await as('POST', `/tasks/${seen.task.id}/tool-requests/${hidden.tool.id}/decide`, {
      decision: 'approve',
    });
    expectErrorShape(cross, 404, 'not_found');
    const hiddenContinue = await as('POST', `/tasks/${hidden.task.id}/continue`, { instruction: 'go on' });
    expectErrorShape(hiddenContinue, 404, 'not_found');
    expect(JSON.stringify(b.maestro.invoke('getTask', { taskId: hidden.task.id }))).toBe(hiddenBefore);
    expect(callersRepo(b.maestro.store.db).actions(caller.id)).toEqual([
      { operation: 'addComment', taskId: seen.task.id, at: expect.any(Number) },
    ]);
  });

  it('P10.08 lists hold only the caller’s spaces: GET /tasks, /spaces, /workspaces/recent, the default folder’s pieces; a caller of "all" sees both', async () => {
    const { b, seen, hidden, folderA, folderB, spaceA, as } = await twoSpaces();
    // The host's default folder (B) has a piece of its own and a broken piece file.
    const piecesDir = path.join(folderB, '.maestro', 'pieces');
    fs.mkdirSync(piecesDir, { recursive: true });
    fs.writeFileSync(path.join(piecesDir, 'secret-b.yaml'), 'id: secret-b\nname: B only\nmovements:\n  - name: go\n');
    fs.writeFileSync(path.join(piecesDir, 'bad.yaml'), 'id: Not An Id\nname: Bad\nmovements: []\n');
    acceptWorkspaceSettings(b.maestro, folderB);
    const ownerPieces = await b.api('GET', '/pieces');
    expect(ownerPieces.text).toContain('secret-b');
    expect(ownerPieces.json.errors).toHaveLength(1);
    const pieces = await as('GET', '/pieces');
    expect(pieces.json.pieces.length).toBeGreaterThan(0);
    expect(pieces.json.pieces.every((p: { source: string }) => p.source === 'builtin')).toBe(true);
    expect(pieces.text).not.toContain(folderB);
    expect(pieces.json.errors).toEqual([]);

    const tasks = await as('GET', '/tasks');
    expect(tasks.json.tasks.map((t: { id: string }) => t.id)).toEqual([seen.task.id]);
    const spaces = await as('GET', '/spaces');
    expect(spaces.json.spaces.map((s: { id: string }) => s.id)).toEqual([spaceA]);
    const recent = await as('GET', '/workspaces/recent');
    expect(recent.json).toEqual({ folders: [{ path: folderA, lastUsedAt: expect.any(String) }], defaultFolder: null });
    // The owner, unchanged, sees both.
    const owned = await b.api('GET', '/tasks');
    expect(owned.json.tasks.map((t: { id: string }) => t.id).sort()).toEqual([seen.task.id, hidden.task.id].sort());
    const all = await b.api('POST', '/callers', { name: 'person', spaces: 'all', role: 'person' });
    const asAll = await b.api('GET', '/tasks', undefined, { authorization: `Bearer ${all.json.token}` });
    expect(asAll.json.tasks.map((t: { id: string }) => t.id).sort()).toEqual([seen.task.id, hidden.task.id].sort());
    expect(
      (await b.api('GET', `/tasks/${hidden.task.id}`, undefined, { authorization: `Bearer ${all.json.token}` })).status,
    ).toBe(200);
  });

  it('P1.20 POST /tasks by a caller in its own space is created (and recorded as its action); in another space nothing is', async () => {
    const { b, folderA, folderB, caller, as } = await twoSpaces();
    const before = b.maestro.store.tasks.list().length;
    const refused = await as('POST', '/tasks', { instruction: 'elsewhere', workspacePath: folderB });
    expectErrorShape(refused, 404, 'not_found');
    expect(refused.text).not.toContain(folderB);
    // A folder with no space yet would make one: not the caller's either.
    const fresh = fs.realpathSync(tempDir('space-c-'));
    expectErrorShape(await as('POST', '/tasks', { instruction: 'new', workspacePath: fresh }), 404, 'not_found');
    expect(b.maestro.store.spaces.byFolder(fresh)).toBeUndefined();
    expect(b.maestro.store.tasks.list().length).toBe(before);
    const made = await as('POST', '/tasks', { instruction: 'mine', workspacePath: path.join(folderA, '.') });
    expect(made.status, made.text).toBe(201);
    expect(callersRepo(b.maestro.store.db).actions(caller.id)).toEqual([
      { operation: 'createTask', taskId: made.json.task.id, at: expect.any(Number) },
    ]);
  });
});

describe('callers: managed by the owner only, tokens kept hashed', () => {
  it('a caller’s token cannot make, list or revoke callers (403), and bad input is refused naming the field, nothing made', async () => {
    const { b, caller, as } = await twoSpaces();
    const before = snapshot(b.maestro);
    expectErrorShape(
      await as('POST', '/callers', { name: 'escalate', spaces: 'all', role: 'agent' }),
      403,
      'forbidden',
    );
    expectErrorShape(await as('GET', '/callers'), 403, 'forbidden');
    expectErrorShape(await as('DELETE', `/callers/${caller.id}`), 403, 'forbidden');
    const unknown = await b.api('POST', '/callers', { name: 'x', spaces: ['spc_nope'], role: 'agent' });
    expectErrorShape(unknown, 400, 'invalid_input');
    expect(unknown.json.error.issues[0].path).toEqual(['spaces', 0]);
    expect(unknown.json.error.message).toContain('spc_nope');
    expectErrorShape(
      await b.api('POST', '/callers', { name: 'x', spaces: 'some', role: 'agent' }),
      400,
      'invalid_input',
    );
    expectErrorShape(await b.api('POST', '/callers', { name: 'x', spaces: [], role: 'agent' }), 400, 'invalid_input');
    expectErrorShape(await b.api('POST', '/callers', { name: 'x', spaces: 'all', role: 'root' }), 400, 'invalid_input');
    expect(snapshot(b.maestro)).toBe(before);
    expectErrorShape(await b.api('DELETE', '/callers/caller_nope'), 404, 'not_found');
  });

  it('the token is shown once and never stored: the DB file and its WAL hold its SHA-256, not its text; GET /callers shows neither', async () => {
    const { b, token, caller } = await twoSpaces();
    expect(token.length).toBeGreaterThanOrEqual(40);
    const listed = await b.api('GET', '/callers');
    expect(listed.json).toEqual({ callers: [caller] });
    expect(listed.text).not.toContain(token);
    const hash = createHash('sha256').update(token).digest('hex');
    expect(listed.text).not.toContain(hash);
    const dbFiles = fs.readdirSync(b.maestro.ctx.dataDir).filter((f) => f.startsWith('maestro.db'));
    const bytes = Buffer.concat(dbFiles.map((f) => fs.readFileSync(path.join(b.maestro.ctx.dataDir, f))));
    expect(bytes.includes(hash), 'the hash is what is kept').toBe(true);
    expect(bytes.includes(token)).toBe(false);
    expect(bytes.includes(token.slice(4, 24))).toBe(false);
  });
});

describe('callers: revocation and the event stream', () => {
  it('P10.08 a caller’s /events carries only its tasks; revoked mid-stream, the stream ends with a 401 frame and every next request is 401', async () => {
    const { b, folderA, folderB, caller, token, as } = await twoSpaces();
    const stream = await fetch(`${b.url}/api/local/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    let ended = false;
    const reading = (async () => {
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      ended = true;
    })();
    const hidden = b.maestro.invoke('createTask', { instruction: 'hidden', workspacePath: folderB });
    const visible = b.maestro.invoke('createTask', { instruction: 'visible', workspacePath: folderA });
    await expect.poll(() => text.includes(visible.task.id), { timeout: 5000 }).toBe(true);
    expect(text).not.toContain(hidden.task.id);
    expect(text).not.toContain('hidden');

    const revoked = await b.api('DELETE', `/callers/${caller.id}`);
    expect(revoked.status, revoked.text).toBe(200);
    await reading;
    expect(ended).toBe(true);
    expect(text.endsWith(REVOKED_FRAME)).toBe(true);
    expectErrorShape(await as('GET', '/tasks'), 401, 'unauthorized');
    expectErrorShape(await as('GET', '/events'), 401, 'unauthorized');
    expect((await b.api('GET', '/callers')).json).toEqual({ callers: [] });
    // The owner's token is untouched.
    expect((await b.api('GET', '/tasks')).status).toBe(200);
  });

  it('a caller revoked in the DB by another process (no notice to this host): its open stream still ends within the recheck period', async () => {
    const { b, caller, token } = await twoSpaces();
    const stream = await fetch(`${b.url}/api/local/events`, { headers: { authorization: `Bearer ${token}` } });
    const started = Date.now();
    // What another host sharing the DB would do: the row revoked, no listener of this process told.
    b.maestro.store.db.prepare('UPDATE callers SET revoked_at = 1 WHERE id = ?').run(caller.id);
    const text = await stream.text();
    expect(text.endsWith(REVOKED_FRAME)).toBe(true);
    expect(Date.now() - started).toBeLessThan(REVOCATION_RECHECK_MS * 2 + 1000);
  });
});

describe('callers: A2A with a caller token', () => {
  it('P10.08 tasks/get, tasks/cancel and messages of a hidden task are "not found" to a caller and change nothing; a caller of the default space starts a task there', async () => {
    const { b, hidden, token, spaceB } = await twoSpaces();
    const a2aId = randomUUID();
    b.maestro.store.a2aTasks.insert({
      id: a2aId,
      contextId: 'ctx-hidden',
      taskId: hidden.task.id,
      firstJobId: hidden.job.id,
    });
    // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers are inspected freely
    const rpc = (method: string, params: unknown, auth: string): Promise<any> =>
      fetch(`${b.url}/api/local/a2a`, {
        method: 'POST',
        headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }).then((r) => r.json());
    const before = snapshot(b.maestro);
    expect((await rpc('tasks/get', { id: a2aId }, token)).error.code).toBe(-32001);
    expect((await rpc('tasks/cancel', { id: a2aId }, token)).error.code).toBe(-32001);
    const send = await rpc(
      'message/send',
      {
        message: {
          kind: 'message',
          role: 'user',
          messageId: randomUUID(),
          contextId: 'ctx-hidden',
          parts: [{ kind: 'text', text: 'more' }],
        },
        configuration: { blocking: false },
      },
      token,
    );
    expect(send.error?.code, JSON.stringify(send)).toBe(-32001);
    // A new task in the host's default folder (B): not the caller's space.
    const start = await rpc(
      'message/send',
      {
        message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text: 'start' }] },
        configuration: { blocking: false },
      },
      token,
    );
    expect(start.error?.code, JSON.stringify(start)).toBe(-32001);
    expect(snapshot(b.maestro)).toBe(before);
    expect((await rpc('tasks/get', { id: a2aId }, b.token)).result.id).toBe(a2aId);

    // A caller of the host's default space (B) starts a task there; it is recorded as that caller's action.
    const peer = await b.api('POST', '/callers', { name: 'peer agent', spaces: [spaceB], role: 'agent' });
    const started = await rpc(
      'message/send',
      {
        message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text: 'start' }] },
        configuration: { blocking: false },
      },
      peer.json.token,
    );
    expect(started.result?.kind, JSON.stringify(started)).toBe('task');
    const record = b.maestro.store.a2aTasks.get(started.result.id);
    expect(b.maestro.store.tasks.spaceId(record?.taskId as string)).toBe(spaceB);
    expect(callersRepo(b.maestro.store.db).actions(peer.json.caller.id)).toEqual([
      { operation: 'createTask', taskId: record?.taskId, at: expect.any(Number) },
    ]);
    // And the first caller (space A) still cannot read it.
    expect((await rpc('tasks/get', { id: started.result.id }, token)).error.code).toBe(-32001);
  });
});
