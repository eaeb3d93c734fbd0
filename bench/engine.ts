// Benchmark: what a user can feel of the Piece engine, against the raw `openai` SDK replaying the very request bodies
// the engine sent, both talking to the project's scripted OpenAI-compatible server (test-support), measured in one run:
//
// - overhead per iteration at turn 10 and at turn 200 of one long job against a zero-latency model (engine/overhead.ts):
//   flat with the conversation's length (turn 200 ≤ 1.5× turn 10) and median ≤ 2 ms;
// - the wall time of a job against a model with 20 ms to first token (engine/latency.ts): ≤ 1.05× the raw SDK's;
// - prefix reuse between consecutive requests, within a movement and across transitions (engine/prefix.ts): ≥ 99%;
// - on a miss or with --breakdown, where the engine's time goes, early and late in the job (engine/breakdown.ts).
//
// The engine side is a real job through createMaestro → Worker → createEngine → runPiece on an app that has already
// run one short job; an iteration's time is read from the server's arrival times, request to request. The servers run
// in a child process (--in-process: in this one). Rounds alternate the order; medians over rounds are quoted.
//
// Run: npm run bench:engine -- [--rounds N] [--iterations N] [--breakdown] [--in-process]
import { main } from './engine/main';

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
