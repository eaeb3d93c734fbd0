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
import { buildTree, DIST_FILES, LOG_FILES, NODE_MODULES_FILES } from './tools-tree';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const ONLY = process.env.BENCH_ONLY;
const KEEP = process.env.BENCH_KEEP === '1';

// ---- helpers ---------------------------------------------------------------------------------------------------

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits });
const ratio = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)}×`;
const now = () => performance.now();

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
    sandbox: { ok: false, reason: 'none in this bench' },
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
    const stats = buildTree(ws, FILES);
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
