// Tools benchmark: the project's `grep` and `glob` tools (src-main/tools) against git and find on the same tree.
//
// The tree: BENCH_FILES (default 20 000) tracked text files of realistic size in nested folders (src/, packages/*/
// {src,test}/, docs/, scripts/), plus what a real checkout also holds but git ignores: a `node_modules` folder, a
// `dist/` build folder and a few `*.log` files, all named in a `.gitignore`. The tree is made a git repo (init, add,
// commit) so `git grep` / `git ls-files` have an index.
//
// Measured, in one run, rounds alternating which side goes first, after the count check below (which warms the page
// cache and the JIT):
//   grep tool (execute with a ToolContext) vs `git grep -n -I -E` for the same patterns (spawned);
//   glob tool vs `find` with the equivalent -name/-path expressions, and vs `git ls-files` with a pathspec.
// Figures quoted are medians of the per-round ratios tool time / external time ("per-case" and "all cases": the
// ratio of the round's summed times). External times include process start-up (a few ms).
//
// Result counts are checked once, untimed: the tools answer "every file except .git and node_modules" (no .gitignore),
// so the exact-equivalent references are `git grep --untracked --no-exclude-standard … ':!node_modules'`,
// `find` with node_modules/.git pruned and `git ls-files -co … ':!node_modules'`. The timed git commands answer the
// .gitignore-respecting question (tracked files only), which differs by the ignored dist/ and *.log files.
//
// Run: npx tsx bench/tools.ts   (env: BENCH_ROUNDS=5, BENCH_FILES=20000, BENCH_ONLY=grep|glob, BENCH_DIR=<existing
// tree to reuse>, BENCH_KEEP=1 keeps the temp tree). Profile: node --cpu-prof --import tsx bench/tools.ts
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { globTool } from '../src-main/tools/glob';
import { grepTool } from '../src-main/tools/grep';
import type { ToolContext, ToolOutcome } from '../src-main/tools/types';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const ONLY = process.env.BENCH_ONLY;
const KEEP = process.env.BENCH_KEEP === '1';
const NODE_MODULES_FILES = 3_000;
const DIST_FILES = 800;
const LOG_FILES = 40;

// ---- helpers ---------------------------------------------------------------------------------------------------

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const ratio = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)}×`;
const now = () => performance.now();

/** mulberry32: a small deterministic PRNG, so every run builds the same tree. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(20_000);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
function weighted<T>(table: readonly (readonly [T, number])[]): T {
  let r = rand() * table.reduce((s, [, w]) => s + w, 0);
  for (const [v, w] of table) {
    r -= w;
    if (r <= 0) return v;
  }
  return (table[table.length - 1] as readonly [T, number])[0];
}
/** Roughly log-normal: median `med`, long tail (a few big files), capped. */
function logNormal(med: number, sigma: number, max: number): number {
  const u = 1 - rand();
  const v = rand();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(1, Math.min(max, Math.round(med * Math.exp(sigma * z))));
}

// ---- the tree --------------------------------------------------------------------------------------------------

const WORDS = [
  'user',
  'account',
  'session',
  'order',
  'invoice',
  'payment',
  'cart',
  'product',
  'search',
  'report',
  'chart',
  'table',
  'form',
  'modal',
  'layout',
  'theme',
  'router',
  'store',
  'cache',
  'queue',
  'worker',
  'event',
  'logger',
  'config',
  'auth',
  'token',
  'profile',
  'settings',
  'billing',
  'export',
  'import',
  'upload',
  'media',
  'image',
  'editor',
  'panel',
  'sidebar',
  'header',
  'footer',
  'menu',
  'button',
  'input',
  'list',
  'item',
  'detail',
  'filter',
] as const;
const FOLDER_WORDS = [
  'components',
  'hooks',
  'utils',
  'lib',
  'services',
  'models',
  'views',
  'api',
  'features',
  'common',
  'shared',
  'internal',
  'core',
  'helpers',
  'state',
  'styles',
  'pages',
  'widgets',
  'adapters',
  'handlers',
] as const;
const cap = (w: string) => w[0]?.toUpperCase() + w.slice(1);

const TS_LINES: readonly ((w: string, W: string) => string)[] = [
  (w) => `import { ${w}Service } from '../services/${w}';`,
  (_w, W) => `import React, { useState, useEffect } from 'react';  // ${W}`,
  () => `import fs from 'node:fs';`,
  (w) => `export function ${w}Handler(req: Request, res: Response): void {`,
  (w, W) => `export async function ${w}${W}Handler(event: ${W}Event): Promise<void> {`,
  (w) => `  const ${w}Count = items.filter((x) => x.${w} !== undefined).length;`,
  (w, W) => `  if (!${w}) throw new Error('${W} not found: ' + String(id));`,
  (w) => `  return ${w}.map((entry) => ({ ...entry, updatedAt: Date.now() }));`,
  (w, W) => `export interface ${W}Props { id: string; ${w}: ${W} | null; onChange?: (v: ${W}) => void }`,
  (w) => `  // TODO: handle the ${w} edge case once the backend returns it`,
  (w) => `  logger.debug('${w} loaded', { size: ${w}.length, elapsed: performance.now() - started });`,
  (w, W) => `  const [${w}, set${W}] = useState<${W} | undefined>(undefined);`,
  () => `  }`,
  () => `}`,
  () => ``,
  (w) => `  for (const key of Object.keys(${w})) result[key] = normalize(${w}[key]);`,
  (w, W) => `/** Returns the ${w} for the given id, or undefined when the ${W} was deleted. */`,
  (w) => `  await db.transaction(async (tx) => tx.update(${w}Table).set(values).where(eq(${w}Table.id, id)));`,
  (w) => `  deprecatedApiCall(${w}); // FIXME remove before 2.0`,
];
const TS_WEIGHTS = [6, 3, 1, 1, 1, 8, 4, 5, 2, 0.7, 4, 2, 10, 5, 8, 3, 3, 2, 0.02];
const MD_LINES: readonly ((w: string, W: string) => string)[] = [
  (_w, W) => `## ${W}`,
  (w) => `The ${w} module keeps its state in memory and writes it back on every change to the ${w} store.`,
  (w) => `- \`${w}Handler\` answers the request; see the ${w} service for the details of retries.`,
  () => ``,
  (w) => `TODO: document how ${w} interacts with caching and invalidation.`,
  (w) => `    npm run build:${w} -- --watch`,
];
const MD_WEIGHTS = [2, 8, 4, 6, 0.5, 1];

function textOf(lines: readonly ((w: string, W: string) => string)[], weights: number[], count: number): string {
  const table = lines.map((l, i) => [l, weights[i] as number] as const);
  let out = '';
  for (let i = 0; i < count; i++) {
    const w = pick(WORDS);
    out += `${weighted(table)(w, cap(w))}\n`;
  }
  return out;
}

function contentFor(ext: string): string {
  switch (ext) {
    case 'md':
    case 'txt':
      return textOf(MD_LINES, MD_WEIGHTS, logNormal(40, 0.8, 1500));
    case 'json':
      return `${JSON.stringify(
        Object.fromEntries(Array.from({ length: logNormal(12, 0.8, 400) }, (_, i) => [`${pick(WORDS)}_${i}`, rand()])),
        null,
        2,
      )}\n`;
    case 'css':
      return Array.from(
        { length: logNormal(20, 0.7, 500) },
        () =>
          `.${pick(WORDS)}-${pick(WORDS)} { margin: ${Math.floor(rand() * 24)}px; color: #${Math.floor(rand() * 0xffffff).toString(16)}; }\n`,
      ).join('');
    case 'yml':
      return Array.from({ length: logNormal(15, 0.6, 200) }, () => `${pick(WORDS)}: ${pick(WORDS)}\n`).join('');
    default: // ts, tsx, js, test.ts, d.ts
      return textOf(TS_LINES, TS_WEIGHTS, logNormal(70, 0.8, 3000));
  }
}

const EXTENSIONS = [
  ['ts', 38],
  ['tsx', 12],
  ['js', 8],
  ['test.ts', 9],
  ['d.ts', 2],
  ['json', 6],
  ['md', 9],
  ['css', 6],
  ['txt', 3],
  ['yml', 2],
] as const;

interface TreeStats {
  files: number;
  bytes: number;
  folders: number;
}

/** Writes the tree below `root`; returns what it wrote (tracked files only). */
function buildTree(root: string): TreeStats {
  // Folders: a few roots, each with a random subtree up to 4 levels deep.
  const roots = ['src', 'docs', 'scripts', 'test'];
  for (let p = 0; p < 40; p++) {
    const pkg = `packages/${pick(WORDS)}-${String(p).padStart(2, '0')}`;
    roots.push(`${pkg}/src`, `${pkg}/test`);
  }
  const folders: string[] = [];
  const grow = (dir: string, depth: number) => {
    folders.push(dir);
    if (depth >= 4) return;
    const n = depth <= 0 ? 3 + Math.floor(rand() * 5) : Math.floor(rand() * 4);
    const used = new Set<string>();
    for (let i = 0; i < n; i++) {
      const name = rand() < 0.5 ? pick(FOLDER_WORDS) : pick(WORDS);
      if (used.has(name)) continue;
      used.add(name);
      grow(`${dir}/${name}`, depth + 1);
    }
  };
  for (const r of roots) grow(r, r === 'src' ? -1 : 0);
  for (const d of folders) fs.mkdirSync(path.join(root, d), { recursive: true });

  const names = new Set<string>();
  let bytes = 0;
  const write = (rel: string, content: string) => {
    fs.writeFileSync(path.join(root, rel), content);
    bytes += content.length;
  };
  // An index file in about half of the folders, then the rest spread at random.
  for (const d of folders) {
    if (names.size >= FILES || rand() < 0.5) continue;
    const rel = `${d}/index.${rand() < 0.7 ? 'ts' : 'tsx'}`;
    names.add(rel);
    write(rel, contentFor('ts'));
  }
  while (names.size < FILES) {
    const dir = pick(folders);
    const ext = dir.startsWith('docs') ? (rand() < 0.8 ? 'md' : 'txt') : weighted(EXTENSIONS);
    const rel = `${dir}/${pick(WORDS)}-${pick(WORDS)}${rand() < 0.3 ? `-${Math.floor(rand() * 100)}` : ''}.${ext}`;
    if (names.has(rel)) continue;
    names.add(rel);
    write(rel, contentFor(ext));
  }
  fs.writeFileSync(path.join(root, '.gitignore'), 'node_modules/\ndist/\n*.log\ncoverage/\n');

  // Ignored by git, seen by the tools (they do not read .gitignore).
  for (let i = 0; i < DIST_FILES; i++) {
    const rel = `dist/${pick(FOLDER_WORDS)}/${pick(WORDS)}-${i}.${i % 4 === 0 ? 'd.ts' : 'js'}`;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), contentFor('js'));
  }
  for (let i = 0; i < LOG_FILES; i++) {
    fs.writeFileSync(path.join(root, `${pick(folders)}/debug-${i}.log`), textOf(MD_LINES, MD_WEIGHTS, 200));
  }
  // Skipped by both (unless named).
  for (let i = 0; i < NODE_MODULES_FILES; i++) {
    const rel = `node_modules/${pick(WORDS)}-lib/${pick(['dist', 'lib', 'src'])}/${pick(WORDS)}-${i}.${pick(['js', 'ts', 'd.ts', 'json'])}`;
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), contentFor('js'));
  }
  return { files: names.size, bytes, folders: folders.length };
}

function git(cwd: string, ...args: string[]) {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

// ---- running the two sides -------------------------------------------------------------------------------------

interface Run {
  ms: number;
  /** Result lines (matches or paths), notes and caps accounted for. */
  count: number;
  /** The listed paths (glob/find/ls-files only). */
  paths?: string[];
}

/** Spawns a command, counting its output lines; exit 1 with no output is "no matches" (grep's convention). */
function runExternal(cmd: string, args: string[], cwd: string, keepPaths = false): Promise<Run> {
  return new Promise((resolve, reject) => {
    const started = now();
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let lines = 0;
    let err = '';
    child.stdout.on('data', (b: Buffer) => {
      for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) lines++;
      if (keepPaths) chunks.push(b);
    });
    child.stderr.on('data', (b: Buffer) => {
      err += b.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = now() - started;
      if (code !== 0 && !(code === 1 && lines === 0))
        return reject(new Error(`${cmd} ${args.join(' ')}: ${code} ${err}`));
      const paths = keepPaths
        ? Buffer.concat(chunks)
            .toString('utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => l.replace(/^\.\//, ''))
        : undefined;
      resolve({ ms, count: lines, paths });
    });
  });
}

function ctxFor(workspacePath: string): ToolContext {
  return {
    taskId: 'bench',
    jobId: 'bench',
    workspacePath,
    canEdit: false,
    signal: new AbortController().signal,
  };
}

const contentOf = (o: ToolOutcome) => {
  if (o.kind !== 'result') throw new Error('the tool asked to wait');
  if (o.content.startsWith('Error:')) throw new Error(o.content);
  return o.content;
};

/** The tool's full answer size: shown lines + the "… N more" note; whether the walk was capped. */
function countToolLines(content: string): { count: number; shown: string[]; capped: boolean } {
  if (content === 'No matches' || content.startsWith('No files match')) return { count: 0, shown: [], capped: false };
  const lines = content.split('\n');
  let count = 0;
  let capped = false;
  const shown: string[] = [];
  for (const l of lines) {
    const more = /^… (\d+) more (?:matching lines|files match)/.exec(l);
    if (more) count += Number(more[1]);
    else if (l.startsWith('… the search stopped early')) capped = true;
    else {
      count++;
      shown.push(l);
    }
  }
  return { count, shown, capped };
}

async function runGrepTool(ws: string, args: { pattern: string; glob?: string }): Promise<Run> {
  const started = now();
  const content = contentOf(await grepTool.execute(args, ctxFor(ws)));
  const ms = now() - started;
  const { count, capped } = countToolLines(content);
  if (capped) throw new Error('grep stopped early (walk cap)');
  return { ms, count };
}

async function runGlobTool(ws: string, pattern: string): Promise<Run> {
  const started = now();
  const content = contentOf(await globTool.execute({ pattern }, ctxFor(ws)));
  const ms = now() - started;
  const { count, shown, capped } = countToolLines(content);
  if (capped) throw new Error('glob stopped early (walk cap)');
  return { ms, count, paths: shown };
}

// ---- the cases -------------------------------------------------------------------------------------------------

interface GrepCase {
  label: string;
  /** JavaScript RegExp (the tool) — chosen so that POSIX ERE reads it the same. */
  pattern: string;
  glob?: string;
  /** git pathspec equivalent of `glob`. */
  pathspec?: string[];
}
const GREP_CASES: GrepCase[] = [
  { label: 'TODO', pattern: 'TODO' },
  { label: 'rare literal', pattern: 'deprecatedApiCall' },
  { label: 'regex', pattern: 'export (async )?function [A-Za-z]+Handler\\(' },
  { label: 'anchored alt', pattern: "^import .* from '(react|node:fs)'" },
  { label: 'TODO in *.tsx', pattern: 'TODO', glob: '*.tsx', pathspec: ['*.tsx'] },
];

interface GlobCase {
  pattern: string;
  /** find arguments (run in the tree; paths printed relative with ./ stripped). */
  find: string[];
  /** git ls-files pathspec. */
  pathspec: string[];
}
const PRUNE = ['(', '-name', 'node_modules', '-o', '-name', '.git', ')', '-prune', '-o'];
const GLOB_CASES: GlobCase[] = [
  { pattern: '**/*.ts', find: ['.', ...PRUNE, '-type', 'f', '-name', '*.ts', '-print'], pathspec: ['*.ts'] },
  {
    pattern: 'src/**/index.*',
    find: ['src', ...PRUNE, '-type', 'f', '-name', 'index.*', '-print'],
    pathspec: [':(glob)src/**/index.*'],
  },
  {
    pattern: 'packages/*/src/**/*.tsx',
    find: ['packages', ...PRUNE, '-type', 'f', '-path', 'packages/*/src/*', '-name', '*.tsx', '-print'],
    pathspec: [':(glob)packages/*/src/**/*.tsx'],
  },
  {
    pattern: '**/*.{md,txt}',
    find: ['.', ...PRUNE, '-type', 'f', '(', '-name', '*.md', '-o', '-name', '*.txt', ')', '-print'],
    pathspec: ['*.md', '*.txt'],
  },
];

// ---- main ------------------------------------------------------------------------------------------------------

interface Series {
  tool: number[];
  ext: number[];
}

function report(title: string, series: Map<string, Series>) {
  const rounds = (series.values().next().value as Series).tool.length;
  const totalRatios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = 0;
    let e = 0;
    for (const s of series.values()) {
      t += s.tool[r] as number;
      e += s.ext[r] as number;
    }
    totalRatios.push(t / e);
  }
  console.log(
    `${title}: median ratio ${ratio(median(totalRatios))} [rounds ${totalRatios.map((x) => x.toFixed(2)).join(' ')}]`,
  );
  for (const [label, s] of series) {
    const ratios = s.tool.map((t, i) => t / (s.ext[i] as number));
    console.log(
      `  ${label.padEnd(28)} ${ratio(median(ratios)).padStart(7)}  tool ${fmt(median(s.tool), 1).padStart(7)} ms  ` +
        `ext ${fmt(median(s.ext), 1).padStart(7)} ms  [${ratios.map((x) => x.toFixed(2)).join(' ')}]`,
    );
  }
  return median(totalRatios);
}

async function main() {
  const t0 = now();
  let ws: string;
  if (process.env.BENCH_DIR) {
    ws = fs.realpathSync(process.env.BENCH_DIR);
    console.log(`reusing tree ${ws}`);
  } else {
    ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-tools-')));
    const stats = buildTree(ws);
    const built = now();
    git(ws, 'init', '-q');
    git(ws, '-c', 'core.looseCompression=0', 'add', '-A'); // no zlib work: only the index matters here
    git(ws, '-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', 'commit', '-q', '-m', 'tree');
    console.log(
      `tree: ${fmt(stats.files)} tracked files (${fmt(stats.bytes / 1024 / 1024, 1)} MiB, ${fmt(stats.folders)} folders) + ` +
        `${fmt(NODE_MODULES_FILES)} in node_modules, ${fmt(DIST_FILES)} in dist/, ${LOG_FILES} *.log (git-ignored); ` +
        `built in ${fmt((built - t0) / 1000, 1)} s, git init/add/commit ${fmt((now() - built) / 1000, 1)} s — ${ws}`,
    );
  }
  const tracked = git(ws, 'ls-files').split('\n').filter(Boolean).length;
  console.log(`git ls-files: ${fmt(tracked)} tracked; rounds: ${ROUNDS}, order alternates`);

  const findings: string[] = [];
  const summary: string[] = [];

  // ---- counts: do the two sides answer the same question? (untimed; the event loop's longest stall is watched) ----
  const stalls = monitorEventLoopDelay({ resolution: 1 });
  const toolStalls: { label: string; ms: number }[] = [];
  const watched = async <T>(label: string, f: () => Promise<T>): Promise<T> => {
    stalls.reset();
    stalls.enable();
    try {
      return await f();
    } finally {
      stalls.disable();
      toolStalls.push({ label, ms: stalls.max / 1e6 });
    }
  };
  if (ONLY !== 'glob') {
    console.log(
      '\ngrep result counts (tool and "same question" both honour .gitignore: tracked + untracked not ignored, minus node_modules)',
    );
    for (const c of GREP_CASES) {
      const tool = await watched(`grep ${c.label}`, () => runGrepTool(ws, { pattern: c.pattern, glob: c.glob }));
      const tracked = await runExternal('git', ['grep', '-n', '-I', '-E', c.pattern, '--', ...(c.pathspec ?? [])], ws);
      const same = await runExternal(
        'git',
        ['grep', '-n', '-I', '-E', '--untracked', c.pattern, '--', ...(c.pathspec ?? ['.']), ':!node_modules'],
        ws,
      );
      const verdict = tool.count === same.count ? 'equal' : 'DIFFERENT';
      console.log(
        `  ${c.label.padEnd(16)} tool ${fmt(tool.count).padStart(6)}  git grep ${fmt(tracked.count).padStart(6)}  ` +
          `same-question git grep ${fmt(same.count).padStart(6)}  → ${verdict}`,
      );
      if (verdict !== 'equal')
        findings.push(`grep ${c.label}: tool ${tool.count} ≠ git grep (same question) ${same.count}`);
    }
  }
  if (ONLY !== 'grep') {
    console.log('\nglob result counts (tool caps its list at 1000 and says how many more; counted in full here)');
    for (const c of GLOB_CASES) {
      const tool = await watched(`glob ${c.pattern}`, () => runGlobTool(ws, c.pattern));
      const find = await runExternal('find', c.find, ws, true);
      const ls = await runExternal('git', ['ls-files', '--', ...c.pathspec], ws);
      const same = await runExternal(
        'git',
        ['ls-files', '-co', '--exclude-standard', '--', ...c.pathspec, ':!node_modules'],
        ws,
      );
      const shownMatch =
        tool.count <= 1000
          ? JSON.stringify(tool.paths) === JSON.stringify([...(find.paths ?? [])].sort())
            ? ', same paths'
            : ', PATHS DIFFER'
          : '';
      // find does not read .gitignore, so only the git listing answers the tool's question.
      const verdict = tool.count === same.count ? 'equal' : 'DIFFERENT';
      console.log(
        `  ${c.pattern.padEnd(24)} tool ${fmt(tool.count).padStart(6)}  find ${fmt(find.count).padStart(6)}  ` +
          `git ls-files ${fmt(ls.count).padStart(6)}  ls-files -co ${fmt(same.count).padStart(6)}  → ${verdict}${shownMatch}`,
      );
      if (verdict !== 'equal') findings.push(`glob ${c.pattern}: counts differ`);
    }
  }

  if (toolStalls.length > 0) {
    const worst = toolStalls.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(
      `\nevent-loop stall per tool call (longest timer delay while it ran): median ${fmt(median(toolStalls.map((x) => x.ms)), 1)} ms, ` +
        `worst ${fmt(worst.ms, 1)} ms (${worst.label})`,
    );
  }

  // ---- timing ----
  const grepSeries = new Map<string, Series>(GREP_CASES.map((c) => [c.label, { tool: [], ext: [] }]));
  const findSeries = new Map<string, Series>(GLOB_CASES.map((c) => [c.pattern, { tool: [], ext: [] }]));
  const lsSeries = new Map<string, Series>(GLOB_CASES.map((c) => [c.pattern, { tool: [], ext: [] }]));
  for (let round = 1; round <= ROUNDS; round++) {
    const toolFirst = round % 2 === 1;
    const pair = async (tool: () => Promise<Run>, ext: () => Promise<Run>, s: Series) => {
      let tr: Run;
      let er: Run;
      if (toolFirst) {
        tr = await tool();
        er = await ext();
      } else {
        er = await ext();
        tr = await tool();
      }
      s.tool.push(tr.ms);
      s.ext.push(er.ms);
    };
    if (ONLY !== 'glob') {
      for (const c of GREP_CASES) {
        await pair(
          () => runGrepTool(ws, { pattern: c.pattern, glob: c.glob }),
          () => runExternal('git', ['grep', '-n', '-I', '-E', c.pattern, '--', ...(c.pathspec ?? [])], ws),
          grepSeries.get(c.label) as Series,
        );
      }
    }
    if (ONLY !== 'grep') {
      for (const c of GLOB_CASES) {
        await pair(
          () => runGlobTool(ws, c.pattern),
          () => runExternal('find', c.find, ws),
          findSeries.get(c.pattern) as Series,
        );
        await pair(
          () => runGlobTool(ws, c.pattern),
          () => runExternal('git', ['ls-files', '--', ...c.pathspec], ws),
          lsSeries.get(c.pattern) as Series,
        );
      }
    }
    process.stdout.write(`${round === 1 ? '\n' : ' · '}round ${round}`);
  }
  console.log('\n');
  if (ONLY !== 'glob') summary.push(`grep vs git grep: ${ratio(report('grep vs git grep', grepSeries))}`);
  if (ONLY !== 'grep') {
    summary.push(`glob vs find: ${ratio(report('glob vs find', findSeries))}`);
    summary.push(`glob vs git ls-files: ${ratio(report('glob vs git ls-files', lsSeries))}`);
  }

  console.log(`\nsummary (medians): ${summary.join(' · ')}`);
  console.log(
    'notes: the tools read every non-.git, non-node_modules file (they do not read .gitignore: dist/ and *.log are ' +
      'searched/listed); git grep / git ls-files see tracked files only; external times include process start-up.',
  );
  if (findings.length > 0) console.log(`count mismatches:\n  ${findings.join('\n  ')}`);
  if (!KEEP && !process.env.BENCH_DIR) fs.rmSync(ws, { recursive: true, force: true });
  else console.log(`kept ${ws}`);
  console.log(`total ${fmt((now() - t0) / 1000, 1)} s`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
