// Prefix reuse (spec 3.1–3.4): for each request after the first, the share of the previous request's serialized
// prompt (JSON.stringify(tools) + JSON.stringify(messages), the order a backend tokenizes it in) that is an exact
// prefix of the next — over the one-movement job and over a job that switches movements every TRANSITION_EVERY.
import type { ChatRequestBody } from '../../test-support/scripted-llm-server';
import { type Bench, runEngineJob } from './engine-job';
import { median, pct, type Verdict, verdict } from './figures';
import { TARGETS } from './options';
import type { Replay } from './replay';
import { relayScript, TRANSITION_EVERY, transitionsAt } from './script';
import { RELAY_PIECE } from './workspace';

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

export interface PrefixReuse {
  /** Element i − 1 is request i's (1-based after the first): common prefix with the previous prompt / its length. */
  shares: number[];
  /** The request number of the worst share. */
  worstAt: number;
}

export function prefixReuse(rawBodies: readonly string[]): PrefixReuse {
  const prompts = rawBodies.map((raw) => {
    const body = JSON.parse(raw) as ChatRequestBody;
    return JSON.stringify(body.tools ?? []) + JSON.stringify(body.messages ?? []);
  });
  const shares = prompts
    .slice(1)
    .map((prompt, i) => commonPrefixLength(prompts[i] as string, prompt) / (prompts[i] as string).length);
  const worst = Math.min(...shares);
  return { shares, worstAt: shares.indexOf(worst) + 1 };
}

export async function measurePrefixReuse(bench: Bench, replay: Replay): Promise<Verdict[]> {
  const relay = relayScript(replay.script.length);
  const relayRun = await runEngineJob(bench, RELAY_PIECE, relay);
  const loop = prefixReuse(replay.rawBodies);
  const relayed = prefixReuse(relayRun.bodies);
  const transitions = transitionsAt(relay);
  const afterTransition = transitions.map((i) => relayed.shares[i - 1] as number);
  const all = [...loop.shares, ...relayed.shares];
  console.log('prefix reuse:');
  console.log(
    `  one movement: min ${pct(Math.min(...loop.shares))} at request #${loop.worstAt}, median ${pct(median(loop.shares))}`,
  );
  console.log(
    `  a transition every ${TRANSITION_EVERY} (${transitions.length}): min ${pct(Math.min(...relayed.shares))} at ` +
      `request #${relayed.worstAt}, median ${pct(median(relayed.shares))}; right after a transition: min ` +
      `${pct(Math.min(...afterTransition))}`,
  );
  const worst = Math.min(...all);
  return [
    verdict(
      worst >= TARGETS.prefixReuse,
      `prefix reuse min ${pct(worst)}, median ${pct(median(all))} (target ≥ ${pct(TARGETS.prefixReuse)})`,
    ),
  ];
}
