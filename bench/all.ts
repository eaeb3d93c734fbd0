// Every benchmark that needs nothing beyond this machine, one after another in one run, so that their figures come
// from the same machine in the same state (issue 28: "measured under the same load as the other benches"). Each runs
// as `npm run bench:<name>` would, its output shown as it goes and kept in a log; the summary at the end gives each
// bench's verdict and its lines that name a target.
//
// Not run here: bench:cache (it measures your backend's prompt cache: MAESTRO_LLM_*), and bench:scale-tasks, which
// bench:scale runs at its end.
//
// Run: npm run bench [-- --only engine,ui] [-- --logs DIR]
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const BENCHES = ['queue', 'engine', 'tools', 'checkpoints', 'scale', 'mcp-resume', 'ui'] as const;
type Bench = (typeof BENCHES)[number];

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

function chosen(): Bench[] {
  const only = option('only');
  if (only === undefined) return [...BENCHES];
  const names = only.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !(BENCHES as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new Error(`--only: no bench ${unknown.join(', ')} (the benches: ${BENCHES.join(', ')})`);
  return BENCHES.filter((b) => names.includes(b));
}

interface Outcome {
  bench: Bench;
  code: number | null;
  minutes: number;
  targets: string[];
}

/** Runs `bench/<name>.ts` as its npm script does, echoing and logging its output. */
function run(bench: Bench, logs: string): Promise<Outcome> {
  const started = Date.now();
  const log = fs.createWriteStream(path.join(logs, `${bench}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', `${bench}.ts`)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  const take = (chunk: Buffer) => {
    process.stdout.write(chunk);
    log.write(chunk);
    text += chunk.toString('utf8');
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      log.end();
      const targets = text.split('\n').filter((line) => /\btargets?\b/.test(line) && !/^\s*round \d/.test(line));
      resolve({ bench, code, minutes: (Date.now() - started) / 60_000, targets });
    });
  });
}

async function main(): Promise<void> {
  const benches = chosen();
  const logs = option('logs') ?? fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-'));
  fs.mkdirSync(logs, { recursive: true });
  if (benches.includes('ui')) {
    console.log('== building the app for bench:ui');
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed: bench:ui needs the built app');
  }
  const outcomes: Outcome[] = [];
  for (const bench of benches) {
    console.log(`\n== bench:${bench}`);
    outcomes.push(await run(bench, logs));
  }
  console.log(`\n== summary (logs in ${logs})`);
  for (const o of outcomes) {
    const verdict =
      o.code === 0 ? 'all targets met' : `exit ${o.code ?? 'signal'}: a target missed or the bench failed`;
    console.log(`bench:${o.bench} (${o.minutes.toFixed(1)} min): ${verdict}`);
    for (const line of o.targets) console.log(`    ${line.trim()}`);
  }
  if (outcomes.some((o) => o.code !== 0)) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
