// Scale benchmark of the task list (issue 28 point 3): a host's start-up and its first page of GET /tasks with 10,000
// finished tasks against an empty data dir, and what a reconnect of the UI fetches. The tasks are written straight
// through the repositories (fast); each start is a whole createMaestro + start + the first list, medians of ROUNDS.
// Targets: start-up ≤ 1.2× empty, the first page ≤ 20 ms, a reconnect one page.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMaestro, type Maestro } from '../src-main/app/create-maestro';
import { startBridge } from '../src-main/bridge/server';
import { Store } from '../src-main/db/store';
import { seedTasks } from '../test-support/task-seed';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const TASKS = Number(process.env.BENCH_TASKS ?? 10_000);
const PAGE_SAMPLES = Number(process.env.BENCH_PAGES ?? 30);
const PIECES_DIR = path.resolve(__dirname, '..', 'pieces');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-scale-'));

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits });

function dataDir(name: string, tasks: number): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  const store = Store.open(path.join(dir, 'maestro.db'));
  if (tasks > 0) seedTasks(store, tasks, { workspacePath: dir, archived: (i) => i % 20 === 0 });
  store.close();
  return dir;
}

function open(dir: string): Maestro {
  return createMaestro({
    dataDir: dir,
    piecesDir: PIECES_DIR,
    version: 'bench',
    env: {},
    sandbox: { ok: false, reason: 'the bench runs no command' },
  });
}

/** A start: the host opened and started; then with its first page listed too (what a window shows first). */
async function startUp(dir: string): Promise<{ start: number; withPage: number }> {
  const from = process.hrtime.bigint();
  const maestro = open(dir);
  maestro.start();
  const start = ms(from);
  maestro.invoke('listTasks', {});
  const withPage = ms(from);
  await maestro.close();
  return { start, withPage };
}

interface PageFigures {
  invokeMs: number;
  searchMs: number;
  httpMs: number;
  pageBytes: number;
  pageTasks: number;
}

/** The first page in the core (invoke) and over the bridge (HTTP, JSON included), medians of PAGE_SAMPLES. */
async function firstPage(dir: string): Promise<PageFigures> {
  const maestro = open(dir);
  maestro.start();
  const token = randomBytes(32).toString('base64url');
  const bridge = await startBridge({ maestro, token, port: 0 });
  const invokes: number[] = [];
  const gets: number[] = [];
  const searches: number[] = [];
  let body = '';
  for (let i = 0; i < PAGE_SAMPLES; i++) {
    const from = process.hrtime.bigint();
    maestro.invoke('listTasks', {});
    invokes.push(ms(from));
    // A search that matches one task reads every title and instruction (no full-text index): the worst page.
    const searched = process.hrtime.bigint();
    maestro.invoke('listTasks', { q: 'thing number 4242' });
    searches.push(ms(searched));
    const sent = process.hrtime.bigint();
    const res = await fetch(`${bridge.url}/api/local/tasks`, { headers: { authorization: `Bearer ${token}` } });
    body = await res.text();
    gets.push(ms(sent));
  }
  await bridge.close();
  await maestro.close();
  return {
    invokeMs: median(invokes),
    searchMs: median(searches),
    httpMs: median(gets),
    pageBytes: Buffer.byteLength(body),
    pageTasks: (JSON.parse(body) as { tasks: unknown[] }).tasks.length,
  };
}

/**
 * What the pages replaced, on the same file: the whole list the UI fetched on every (re)connect (its size, and the
 * old query with its correlated subquery per task), and the attention projection's old start (every task's latest job).
 */
function before(dir: string): { bytes: number; listMs: number; attentionMs: number } {
  const store = Store.open(path.join(dir, 'maestro.db'));
  const bytes = Buffer.byteLength(JSON.stringify({ tasks: store.tasks.list() }));
  const oldList = store.db.prepare(
    `SELECT t.*, (SELECT j.status FROM jobs j WHERE j.task_id = t.id ORDER BY j.created_at DESC, j.rowid DESC LIMIT 1)
       AS status FROM tasks t ORDER BY t.created_at DESC, t.rowid DESC`,
  );
  const lists: number[] = [];
  const attentions: number[] = [];
  for (let i = 0; i < 5; i++) {
    let from = process.hrtime.bigint();
    oldList.all();
    lists.push(ms(from));
    from = process.hrtime.bigint();
    for (const task of store.tasks.list()) store.jobs.latestForTask(task.id);
    attentions.push(ms(from));
  }
  store.close();
  return { bytes, listMs: median(lists), attentionMs: median(attentions) };
}

async function main() {
  const seeding = process.hrtime.bigint();
  const empty = dataDir('empty', 0);
  const full = dataDir('full', TASKS);
  console.log(`seeded ${fmt(TASKS, 0)} finished tasks in ${fmt(ms(seeding) / 1000, 1)} s`);

  // One warm-up of each, then the rounds interleaved so both see the same machine.
  await startUp(empty);
  await startUp(full);
  const emptyStarts: number[] = [];
  const fullStarts: number[] = [];
  const emptyWithPage: number[] = [];
  const fullWithPage: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const e = await startUp(empty);
    const f = await startUp(full);
    emptyStarts.push(e.start);
    emptyWithPage.push(e.withPage);
    fullStarts.push(f.start);
    fullWithPage.push(f.withPage);
  }
  const emptyPage = await firstPage(empty);
  const fullPage = await firstPage(full);
  const all = before(full);

  const startRatio = median(fullStarts) / median(emptyStarts);
  const withPageRatio = median(fullWithPage) / median(emptyWithPage);
  console.log(`\nstart-up (createMaestro + start), median of ${ROUNDS}:`);
  console.log(`  empty data dir     ${fmt(median(emptyStarts), 2)} ms`);
  console.log(`  ${fmt(TASKS, 0)} finished  ${fmt(median(fullStarts), 2)} ms`);
  console.log(`  ratio              ${fmt(startRatio, 2)}×  (target ≤ 1.2×) ${startRatio <= 1.2 ? 'OK' : 'MISSED'}`);
  console.log(
    `  with the first page ${fmt(median(emptyWithPage), 2)} ms vs ${fmt(median(fullWithPage), 2)} ms: ${fmt(withPageRatio, 2)}×`,
  );
  console.log(`\nfirst page of GET /tasks (default page), median of ${PAGE_SAMPLES}:`);
  console.log(
    `  in the core        empty ${fmt(emptyPage.invokeMs, 2)} ms, ${fmt(TASKS, 0)} tasks ${fmt(fullPage.invokeMs, 2)} ms`,
  );
  console.log(
    `  over HTTP          empty ${fmt(emptyPage.httpMs, 2)} ms, ${fmt(TASKS, 0)} tasks ${fmt(fullPage.httpMs, 2)} ms`,
  );
  console.log(
    `  a rare search      empty ${fmt(emptyPage.searchMs, 2)} ms, ${fmt(TASKS, 0)} tasks ${fmt(fullPage.searchMs, 2)} ms (in the core)`,
  );
  console.log(
    `  ratio (HTTP)       ${fmt(fullPage.httpMs / emptyPage.httpMs, 2)}×; ${fmt(fullPage.httpMs, 2)} ms (target ≤ 20 ms) ${fullPage.httpMs <= 20 ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `\na reconnect of the UI (the bridge's default page; the window asks for 50, and 50 of the waiting tasks):`,
  );
  console.log(`  fetches one page   ${fullPage.pageTasks} tasks, ${fmt(fullPage.pageBytes / 1024)} KB`);
  console.log(
    `  everything was     ${fmt(TASKS, 0)} tasks, ${fmt(all.bytes / 1024 / 1024, 2)} MB (${fmt(all.bytes / fullPage.pageBytes, 0)}× the page)`,
  );
  console.log(`\nwhat the pages replaced, on the same ${fmt(TASKS, 0)} tasks (medians of 5):`);
  console.log(`  the unpaged list query (a subquery per task)      ${fmt(all.listMs)} ms`);
  console.log(`  the attention projection's start over every task  ${fmt(all.attentionMs)} ms`);
  fs.rmSync(root, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  fs.rmSync(root, { recursive: true, force: true });
  process.exit(1);
});
