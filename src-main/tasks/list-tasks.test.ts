// GET /tasks by pages (issue 28 point 3, P1.24): newest first, a page size, filters, a cursor that new tasks do not
// shift, a forged or stale cursor refused with its reason, and a first page that walks an index instead of every task.
import { describe, expect, it } from 'vitest';
import { TASK_PAGE_DEFAULT, TASK_PAGE_MAX } from '../../src-shared/contract';
import type { Task } from '../../src-shared/entities';
import { testBridge } from '../../test-support/bridge-harness';
import { rowCounts } from '../../test-support/db';
import { seedTasks } from '../../test-support/task-seed';
import { expectMaestroError, setup } from '../../test-support/tasks';
import { testMaestro } from '../../test-support/temp-maestro';
import type { Maestro } from '../app/create-maestro';
import { resumeParked } from '../app/mcp-operations';

type Input = { limit?: number; cursor?: string; status?: string[]; archived?: boolean; q?: string };

/** Every page from the first, following nextCursor; the pages' sizes too. */
function allPages(m: Maestro, input: Input = {}): { ids: string[]; sizes: number[] } {
  const ids: string[] = [];
  const sizes: number[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < 1000; n++) {
    const page = m.invoke('listTasks', { ...input, ...(cursor ? { cursor } : {}) } as never);
    ids.push(...page.tasks.map((t: Task) => t.id));
    sizes.push(page.tasks.length);
    if (page.nextCursor === null) return { ids, sizes };
    cursor = page.nextCursor;
  }
  throw new Error('the pages never ended');
}

describe('listTasks by pages', () => {
  it('P1.24 newest first, pages of `limit` (the default without one), every task once, the last page’s cursor null', () => {
    const { m, store } = setup();
    // Three at the same ms as their neighbours: the order among them is the order they were made in, newest first.
    const ids = [
      ...seedTasks(store, 250, { step: 1000 }),
      ...seedTasks(store, 3, { from: 5_000_000_000_000, step: 0 }),
    ];
    const newestFirst = [...ids].reverse();

    const first = m.invoke('listTasks', {});
    expect(first.tasks.map((t) => t.id)).toEqual(newestFirst.slice(0, TASK_PAGE_DEFAULT));
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(first.tasks[0]?.status).toBe('succeeded');

    expect(allPages(m, { limit: 40 })).toEqual({ ids: newestFirst, sizes: [40, 40, 40, 40, 40, 40, 13] });
    expect(allPages(m, { limit: TASK_PAGE_MAX }).sizes).toEqual([200, 53]);
  });

  it('P1.24 a cursor is stable while tasks are added: later pages neither shift nor repeat, the new ones start a new first page', () => {
    const { m, store, create } = setup();
    const older = seedTasks(store, 35, { from: Date.now() - 100_000 }).reverse();
    const page1 = m.invoke('listTasks', { limit: 10 });
    expect(page1.tasks.map((t) => t.id)).toEqual(older.slice(0, 10));

    const added = Array.from({ length: 5 }, (_, i) => create({ instruction: `new ${i}` }).task.id);
    let cursor = page1.nextCursor as string;
    const rest: string[] = [];
    for (;;) {
      const page = m.invoke('listTasks', { limit: 10, cursor });
      rest.push(...page.tasks.map((t) => t.id));
      // Another one made between two pages changes nothing either.
      added.push(create({ instruction: 'between pages' }).task.id);
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(rest).toEqual(older.slice(10));
    expect(added).toHaveLength(8);
    expect(m.invoke('listTasks', { limit: 10 }).tasks.map((t) => t.id)).toEqual(
      [...[...added].reverse(), ...older].slice(0, 10),
    );
  });

  it('filters: the latest job’s status (one or several), archived or not, and a search in titles and instructions', () => {
    const { m, store } = setup();
    const done = seedTasks(store, 30, {
      from: 1_000_000,
      title: (i) => (i % 10 === 0 ? `Release 100%_${i}` : `Chore ${i}`),
      archived: (i) => i % 3 === 0,
    }).reverse();
    const failed = seedTasks(store, 4, { from: 2_000_000, status: 'failed' }).reverse();
    const waiting = seedTasks(store, 3, { from: 3_000_000, status: 'waiting_human' }).reverse();
    const archivedDone = done.filter((id) => Number(id.split('_').at(-1)) % 3 === 0);

    expect(allPages(m, { status: ['failed'], limit: 3 })).toEqual({ ids: failed, sizes: [3, 1] });
    // A page that ends exactly at the last task says there is no more.
    expect(allPages(m, { status: ['failed'], limit: 4 }).sizes).toEqual([4]);
    expect(allPages(m, { status: ['waiting_human', 'failed'], limit: 5 }).ids).toEqual([...waiting, ...failed]);
    expect(allPages(m, { archived: true, limit: 4 }).ids).toEqual(archivedDone);
    expect(allPages(m, { archived: false, limit: 7 }).ids).toEqual([
      ...waiting,
      ...failed,
      ...done.filter((id) => !archivedDone.includes(id)),
    ]);
    expect(allPages(m, { archived: false, status: ['succeeded'] }).ids).toHaveLength(20);
    // Case apart (ASCII) and LIKE's wildcards are plain characters: `100%_` matches only itself.
    expect(allPages(m, { q: 'release 100%_', limit: 1 }).ids.map((id) => m.store.tasks.get(id)?.title)).toEqual([
      'Release 100%_20',
      'Release 100%_10',
      'Release 100%_0',
    ]);
    expect(allPages(m, { q: '100%_2', archived: true }).ids).toEqual([]);
    expect(allPages(m, { q: 'thing NUMBER 29' }).ids).toEqual([done[0]]);
  });

  it('a forged cursor, one of another version or of other filters, and a bad limit are refused, naming why; nothing changes', () => {
    const { m, store } = setup();
    seedTasks(store, 12);
    const { nextCursor } = m.invoke('listTasks', { limit: 5 });
    const good = nextCursor as string;
    const [version, at, row, key] = JSON.parse(Buffer.from(good, 'base64url').toString()) as unknown[];
    const forge = (body: unknown) => Buffer.from(JSON.stringify(body)).toString('base64url');
    const counts = rowCounts(store);
    const refusals: [Input, RegExp][] = [
      [{ cursor: 'not a cursor!' }, /does not decode/],
      [{ cursor: forge({ at, row }) }, /form is unknown/],
      [{ cursor: forge([version, -1, row, key]) }, /position is malformed/],
      [{ cursor: forge([version, at, 'x', key]) }, /position is malformed/],
      [{ cursor: forge([0, at, row, key]) }, /another version of the list \(0, this one is 1\)/],
      [{ cursor: forge([2, at, row, key]) }, /another version/],
      [{ cursor: good, archived: true }, /other filters/],
      [{ cursor: good, q: 'x' }, /other filters/],
    ];
    for (const [input, why] of refusals) {
      const error = expectMaestroError(() => m.invoke('listTasks', input as never), 'invalid_input');
      expect(error.message).toMatch(why);
      expect(error.toBody().issues?.[0]?.path).toEqual(['cursor']);
    }
    for (const limit of [0, TASK_PAGE_MAX + 1, 1.5])
      expectMaestroError(() => m.invoke('listTasks', { limit }), 'invalid_input');
    expect(rowCounts(store)).toEqual(counts);
    // The same filters in another order are the same list.
    const both = m.invoke('listTasks', { limit: 1, status: ['succeeded', 'failed'] }).nextCursor as string;
    expect(m.invoke('listTasks', { limit: 1, cursor: both, status: ['failed', 'succeeded'] }).tasks).toHaveLength(1);
  });

  it('the first page (and a status’s, an archive’s, the next) walks an index in list order: no scan of every task, no sort', () => {
    const { m, store } = setup();
    seedTasks(store, 500, { archived: (i) => i % 50 === 0 });
    const after = { createdAt: Date.now(), row: 10 };
    const plans = [
      store.taskPages.plan({ limit: 50 }),
      store.taskPages.plan({ limit: 50, after }),
      store.taskPages.plan({ limit: 50, archived: false }),
      store.taskPages.plan({ limit: 50, archived: true, after }),
      store.taskPages.plan({ limit: 50, statuses: ['waiting_human'] }),
    ];
    expect(plans.map((p) => p.join(' | '))).toEqual([
      'SCAN tasks USING INDEX tasks_by_created',
      'SEARCH tasks USING INDEX tasks_by_created (created_at<?)',
      'SCAN tasks USING INDEX tasks_page_listed',
      'SEARCH tasks USING INDEX tasks_page_archived (created_at<?)',
      expect.stringMatching(/^SEARCH tasks USING INDEX tasks_page_by_status \(latest_status=\?\)/),
    ]);
    for (const plan of plans.slice(0, 4)) expect(plan.join(' ')).not.toMatch(/TEMP B-TREE/);
    expect(m.invoke('listTasks', { limit: 50, archived: false }).tasks).toHaveLength(50);
  });
});

describe('GET /tasks over HTTP', () => {
  it('takes its input as the query: limit, cursor, status as a comma list, archived, q; answers nextCursor', async () => {
    const b = await testBridge();
    const ids = seedTasks(b.maestro.store, 7, { status: 'failed' }).reverse();
    seedTasks(b.maestro.store, 3, { from: 1, status: 'waiting_human' });

    const first = await b.api('GET', '/tasks?limit=4&status=failed,cancelled&archived=false');
    expect(first.status).toBe(200);
    expect(first.json.tasks.map((t: Task) => t.id)).toEqual(ids.slice(0, 4));
    const second = await b.api(
      'GET',
      `/tasks?limit=4&status=failed,cancelled&archived=false&cursor=${encodeURIComponent(first.json.nextCursor)}`,
    );
    expect(second.json).toEqual({ tasks: expect.any(Array), nextCursor: null });
    expect(second.json.tasks.map((t: Task) => t.id)).toEqual(ids.slice(4));
    const all = await b.api('GET', '/tasks');
    expect(all.json.tasks).toHaveLength(10);
    expect(all.json.nextCursor).toBeNull();
  });

  it('400 with the reason for a forged or stale cursor, a bad limit, an unknown status, a parameter given twice or unknown', async () => {
    const b = await testBridge();
    seedTasks(b.maestro.store, 3);
    const stale = Buffer.from(JSON.stringify([0, 1, 1, 'x'])).toString('base64url');
    const cases: [string, RegExp][] = [
      ['/tasks?cursor=forged', /cursor: not a cursor this host made/],
      [`/tasks?cursor=${stale}`, /cursor: made by another version of the list/],
      ['/tasks?limit=0', /limit/],
      ['/tasks?limit=ten', /whole number/],
      ['/tasks?status=done', /status/],
      ['/tasks?archived=yes', /true or false/],
      ['/tasks?limit=1&limit=2', /limit is given twice/],
      ['/tasks?page=2', /page/],
    ];
    for (const [path, why] of cases) {
      const res = await b.api('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.json.error.code, path).toBe('invalid_input');
      expect(JSON.stringify(res.json.error), path).toMatch(why);
    }
  });
});

describe('what grows with the tasks, after a restart', () => {
  it('P7.17 the attention projection rebuilt among 3,000 finished tasks holds exactly the waiting and failed ones, newest first', async () => {
    const first = testMaestro();
    const store = first.store;
    seedTasks(store, 1500, { from: 1_000_000 });
    const failed = seedTasks(store, 2, { from: 2_000_000, status: 'failed' });
    seedTasks(store, 1500, { from: 3_000_000, status: 'cancelled' });
    const waiting = seedTasks(store, 3, { from: 4_000_000, status: 'waiting_human' });
    // A task whose older job failed but whose latest succeeded waits for nobody.
    const retried = failed[0] as string;
    store.jobs.insert({ taskId: retried, pieceId: 'default', profile: null, pendingInvoke: 'UserSend' }, 2_500_000);
    store.db.prepare(`UPDATE jobs SET status = 'succeeded' WHERE task_id = ? AND created_at = 2500000`).run(retried);
    const dataDir = first.ctx.dataDir;
    await first.close();

    const again = testMaestro({ dataDir });
    expect(again.attention.list()).toEqual([
      ...[...waiting].reverse().map((taskId) => ({
        taskId,
        jobId: expect.any(String),
        title: expect.stringMatching(/^Seeded task/),
        reason: 'ask',
        detail: 'The agent asked a question.',
      })),
      {
        taskId: failed[1],
        jobId: expect.any(String),
        title: 'Seeded task 1',
        reason: 'failed',
        detail: 'The job failed.',
      },
    ]);
  });

  it('resumeParked and the settings’ workspace check find a workspace’s tasks among many others', () => {
    const { m, store } = setup();
    seedTasks(store, 2000, { workspacePath: '/tmp/elsewhere' });
    expect(store.tasks.usedWorkspace('/tmp/ws')).toBe(false);
    const parked = seedTasks(store, 2, { workspacePath: '/tmp/ws', status: 'waiting_human' });
    seedTasks(store, 5, { workspacePath: '/tmp/ws' });
    store.db.prepare(`UPDATE jobs SET wait_reason = 'mcp_auth_required' WHERE task_id = ?`).run(parked[1]);
    expect(store.tasks.usedWorkspace('/tmp/ws')).toBe(true);
    expect(store.tasks.idsInWorkspace('/tmp/ws', 'waiting_human')).toEqual(parked);
    expect(m.store.tasks.idsInWorkspace('/tmp/elsewhere', 'waiting_human')).toEqual([]);
    const woken = resumeParked(store, '/tmp/ws');
    expect(woken.map((j) => [j.taskId, j.status])).toEqual([[parked[1], 'queued']]);
    expect(store.jobs.latestForTask(parked[0] as string)?.status).toBe('waiting_human');
  });
});
