// The engine bench's run: record the bodies to replay, then the overhead per iteration, the job against a model
// with a time to first token, prefix reuse, and (on a miss or with --breakdown) where the time goes; PASS/MISS each.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { breakdown } from './breakdown';
import type { Bench } from './engine-job';
import { loadAverage } from './figures';
import { measureLatency } from './latency';
import { options } from './options';
import { measureOverhead } from './overhead';
import { measurePrefixReuse } from './prefix';
import { recordReplay } from './replay';
import { stopServers } from './server';
import { makeWorkspace } from './workspace';

export async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-bench-engine-'));
  try {
    const bench: Bench = { root, workspace: makeWorkspace(root, options.iterations) };
    console.log(
      `engine bench: ${options.iterations} LLM iterations per job, ${options.rounds} rounds, scripted server ` +
        `${options.inProcess ? 'in this process' : 'in a child process'}; load average ${loadAverage()} on ` +
        `${os.availableParallelism()} cores`,
    );
    if ((os.loadavg()[0] ?? 0) > os.availableParallelism()) {
      console.log(
        '  (more runnable work than cores: wall-time figures swing by ms a round; CPU-time ones are steadier)',
      );
    }
    const replay = await recordReplay(bench, options.iterations);
    const verdicts = [
      ...(await measureOverhead(bench, replay, options.rounds)),
      ...(await measureLatency(bench, replay, options.rounds)),
      ...(await measurePrefixReuse(bench, replay)),
    ];
    const missed = verdicts.some((v) => !v.pass);
    if (missed || options.breakdown) await breakdown(bench, replay);
    console.log('');
    for (const v of verdicts) console.log(v.line);
    console.log(`load average at the end: ${loadAverage()}`);
    if (missed) process.exitCode = 1;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    await stopServers();
  }
}
