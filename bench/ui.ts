// UI benchmark: the chat feed of the built renderer in Chromium against the built headless host.
//
// Switch: two tasks seeded into the host's DB, one with 100 feed entries and one with 10,000, each about half comments
// (of every kind, short and long, Markdown with code and tables) and half the agent's recorded steps (tool calls with
// their answers: reads, commands, edits with diffs), in finished jobs of 50 entries (seed-feed-steps.ts). Each
// measurement clicks a task in the list and times, in the page, until the feed shows that task's last entry (its
// bottom inside the feed's viewport). Rounds alternate the order; the figure quoted is the ratio of the medians,
// 10,000 / 100 (target ≤ 1.5: the feed's cost must not grow with the conversation; the feed loads only the latest
// page of comments and steps together, see getTaskRecent).
//
// Stream: then, on the 10,000-entry task, a comment starts a job whose scripted model streams 5,000 small deltas
// (Markdown paragraphs and code, a millisecond apart). While the page renders them, a PerformanceObserver('longtask')
// records every main-thread task over 50 ms, and a 10 ms interval samples the event-loop lag; printed: the longest
// task (target < 50 ms), how many went over 50 ms, the worst lag and the worst gap between animation frames.
//
// Latency: then, on the same task, a scripted answer of 200 chunks 20 ms apart, each with a unique marker; the time
// from the scripted server writing a chunk to its marker appearing in the feed (bench/ui-latency.ts): p50, p95 and
// max (target p95 ≤ 50 ms), split at the page's receipt of the host's event, against a plain SSE round trip to a bare
// page measured first in the same browser (the ratio of the p95s).
//
// Run: npm run build && npm run bench:ui [-- --rounds N]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { APP_ROOT, HEADLESS_ENTRY, type HeadlessHost, startHeadlessHost } from '../e2e/support/headless-host';
import { type ScriptedLlmServer, type SentChunk, startScriptedLlmServer } from '../test-support/scripted-llm-server';
import { type SeededFeed, seedFeedTask } from '../test-support/seed-feed';
import {
  LATENCY_CHUNK_MS,
  LATENCY_CHUNKS,
  LATENCY_TARGET_MS,
  type Latency,
  latencies,
  latencyChunk,
  measureBaseline,
  percentile,
  RECEIVE_PROBE,
  startShownProbe,
} from './ui-latency';
import { call, DOM_PROBE, RECORD_START, RECORD_STOP, SWITCH_PROBE } from './ui-probes';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const RENDERER_INDEX = path.join(APP_ROOT, 'out', 'renderer', 'index.html');
const LLM_API_KEY = 'sk-bench-ui';
const SMALL = 100;
const LARGE = 10_000;
const DELTAS = 5_000;
const RATIO_TARGET = 1.5;
const LONG_TASK_TARGET_MS = 50;
const SWITCH_TIMEOUT_MS = 60_000;
const STREAM_TIMEOUT_MS = 120_000;

function argNumber(name: string, fallback: number, min: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
  return value;
}
const ROUNDS = argNumber('rounds', 7, 1);

interface Switch {
  /** Click → the last entry shown. */
  ms: number;
  /** Click → the task's getTaskRecent answer fully received. */
  answerMs: number;
  /** That answer's size. */
  bytes: number;
}

async function timeSwitch(page: Page, task: SeededFeed): Promise<Switch> {
  const args = { taskId: task.taskId, lastId: task.itemIds.at(-1), timeoutMs: SWITCH_TIMEOUT_MS };
  return page.evaluate<Switch>(call(SWITCH_PROBE, args));
}

interface FeedDom {
  rows: number;
  elements: number;
}

// ---- streaming -------------------------------------------------------------------------------------------------

/** About 8 characters per delta: prose paragraphs with a code block every fourth one. */
function streamedText(deltas: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < deltas * 8; i++) {
    const part =
      i % 4 === 3
        ? `\`\`\`ts\nconst total${i} = values.filter((v) => v > ${i}).length;\nconsole.log(total${i});\n\`\`\``
        : `Paragraph ${i}: the worker claims the job, the engine streams the answer, and the feed follows it to ` +
          `the bottom while **${i}** earlier lines stay where they are.`;
    parts.push(part);
    length += part.length + 2;
  }
  return parts.join('\n\n').slice(0, deltas * 8);
}

interface Recorded {
  longTasks: number[];
  maxLagMs: number;
  maxFrameGapMs: number;
  frames: number;
}

interface StreamFigures extends Recorded {
  ms: number;
}

async function streamIntoTask(
  page: Page,
  host: HeadlessHost,
  llm: ScriptedLlmServer,
  task: SeededFeed,
): Promise<StreamFigures> {
  const message = `Streamed ${DELTAS} deltas.`;
  llm.push({
    text: streamedText(DELTAS),
    textChunks: DELTAS,
    chunkDelayMs: 1,
    toolCalls: [{ name: 'complete', arguments: { status: 'success', message } }],
  });
  await page.evaluate(RECORD_START);
  const started = Date.now();
  const sent = await host.call('POST', `/tasks/${task.taskId}/comments`, { body: 'Stream a long answer, please.' });
  if (sent.status !== 201) throw new Error(`addComment answered ${sent.status}: ${JSON.stringify(sent.body)}`);
  // The job's result replaces the stream: the page has rendered every delta by then.
  await page
    .locator('[data-testid="chat-message"][data-kind="result"]', { hasText: message })
    .waitFor({ timeout: STREAM_TIMEOUT_MS });
  const ms = Date.now() - started;
  await page.waitForTimeout(300);
  const figures = await page.evaluate<Recorded>(RECORD_STOP);
  llm.expectEmpty();
  return { ms, ...figures };
}

/**
 * Streams LATENCY_CHUNKS marked chunks into `task` and times each from the scripted server's write (`sent`, which the
 * server's onChunk fills) to the feed.
 */
async function latencyIntoTask(
  page: Page,
  host: HeadlessHost,
  llm: ScriptedLlmServer,
  task: SeededFeed,
  sent: SentChunk[],
): Promise<Latency> {
  const message = `Streamed ${LATENCY_CHUNKS} marked chunks.`;
  llm.push({
    text: Array.from({ length: LATENCY_CHUNKS }, (_, i) => latencyChunk(i)).join(''),
    textChunks: LATENCY_CHUNKS,
    chunkDelayMs: LATENCY_CHUNK_MS,
    toolCalls: [{ name: 'complete', arguments: { status: 'success', message } }],
  });
  const stop = await startShownProbe(page, '[data-testid="chat-feed"]');
  sent.length = 0;
  const posted = await host.call('POST', `/tasks/${task.taskId}/comments`, { body: 'Stream the marked lines.' });
  if (posted.status !== 201) throw new Error(`addComment answered ${posted.status}: ${JSON.stringify(posted.body)}`);
  await page
    .locator('[data-testid="chat-message"][data-kind="result"]', { hasText: message })
    .waitFor({ timeout: STREAM_TIMEOUT_MS });
  await page.waitForTimeout(300);
  const times = await stop();
  llm.expectEmpty();
  return latencies(sent, times);
}

// ---- figures ---------------------------------------------------------------------------------------------------

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}
const ms = (x: number) => `${x.toFixed(0)} ms`;
const times = (x: number) => `${x.toFixed(2)}×`;
const kb = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(0)} kB`);
const count = (n: number) => n.toLocaleString('en-US');
const spread = (values: readonly number[]) =>
  `p50 ${ms(percentile(values, 50))}, p95 ${ms(percentile(values, 95))}, max ${ms(Math.max(...values))}`;
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

// ---- main ------------------------------------------------------------------------------------------------------

function missingBuild(): string[] {
  return [HEADLESS_ENTRY, RENDERER_INDEX].filter((file) => !fs.existsSync(file));
}

async function main(): Promise<void> {
  const missing = missingBuild();
  if (missing.length > 0) {
    console.error(`bench:ui drives the built app, and ${missing.join(', ')} is missing: run \`npm run build\` first`);
    process.exitCode = 1;
    return;
  }
  if (!fs.existsSync(CHROMIUM)) {
    console.error(`bench:ui needs Chromium at ${CHROMIUM}`);
    process.exitCode = 1;
    return;
  }
  const sent: SentChunk[] = [];
  const llm = await startScriptedLlmServer({ apiKey: LLM_API_KEY, onChunk: (chunk) => sent.push(chunk) });
  let host: HeadlessHost | undefined;
  let browser: Browser | undefined;
  try {
    host = await startHeadlessHost({
      MAESTRO_LLM_BASE_URL: llm.baseURL,
      MAESTRO_LLM_MODEL: 'scripted-bench',
      MAESTRO_LLM_API_KEY: LLM_API_KEY,
    });
    const seedStart = Date.now();
    const small = seedFeedTask(host.dataDir, host.workspace, `Feed of ${SMALL}`, SMALL, { steps: true });
    const large = seedFeedTask(host.dataDir, host.workspace, `Feed of ${count(LARGE)}`, LARGE, { steps: true });
    const seedMs = Date.now() - seedStart;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Both the baseline's page and the app get the EventSource that records when each marker arrived.
    await page.addInitScript(RECEIVE_PROBE);
    const baseline = await measureBaseline(page);
    await page.goto(host.pageUrl);
    await page.locator('[data-testid="live-indicator"][data-live="live"]').waitFor();
    await page.locator(`[data-testid="task-item"][data-task-id="${large.taskId}"]`).waitFor();
    console.log(
      `ui bench: feed of ${SMALL} vs ${count(LARGE)} entries (seeded in ${ms(seedMs)}, ` +
        `${count(large.itemIds.length - large.commentIds.length)} of them recorded steps in ${large.jobCount} jobs), ${ROUNDS} rounds, the two tasks alternating; ` +
        `${DELTAS} streamed deltas; Chromium ${browser.version()}, load average ${loadAverage()} on ` +
        `${os.availableParallelism()} cores`,
    );

    // Warm-up, not counted: the first visit of each task compiles the renderer's paths.
    await timeSwitch(page, small);
    await timeSwitch(page, large);

    const smallRuns: Switch[] = [];
    const largeRuns: Switch[] = [];
    // Each switch leaves the other task, so every measurement includes taking the previous feed down.
    for (let r = 0; r < ROUNDS; r++) {
      for (const task of [small, large]) {
        // Let the loads that follow a switch (usage, requests, activity) end before the next one starts.
        await page.waitForTimeout(250);
        (task === small ? smallRuns : largeRuns).push(await timeSwitch(page, task));
      }
      const s = (smallRuns.at(-1) as Switch).ms;
      const l = (largeRuns.at(-1) as Switch).ms;
      console.log(
        `  round ${r + 1}: ${SMALL} entries ${ms(s)}, ${count(LARGE)} entries ${ms(l)}, ratio ${times(l / s)}`,
      );
    }
    const dom = await page.evaluate<FeedDom>(DOM_PROBE);
    const smallMs = smallRuns.map((x) => x.ms);
    const largeMs = largeRuns.map((x) => x.ms);
    const ratio = median(largeMs) / median(smallMs);
    // The part after the answer arrived: parsing it, the store, the feed's render and layout.
    const smallAfter = median(smallRuns.map((x) => x.ms - x.answerMs));
    const largeAfter = median(largeRuns.map((x) => x.ms - x.answerMs));
    console.log('');
    console.log(
      `select → last entry shown: median ${SMALL} entries ${ms(median(smallMs))}, ${count(LARGE)} entries ` +
        `${ms(median(largeMs))}, ratio ${times(ratio)} (target ≤ ${times(RATIO_TARGET)}) ` +
        `${ratio <= RATIO_TARGET ? 'OK' : 'MISSED'}`,
    );
    console.log(
      `  of which the getTaskRecent answer (task, jobs, the latest comments): median ${SMALL} entries ` +
        `${ms(median(smallRuns.map((x) => x.answerMs)))} (${kb(median(smallRuns.map((x) => x.bytes)))}), ` +
        `${count(LARGE)} entries ${ms(median(largeRuns.map((x) => x.answerMs)))} ` +
        `(${kb(median(largeRuns.map((x) => x.bytes)))})`,
    );
    console.log(
      `  and after it (parse, store, feed render and layout): median ${SMALL} entries ${ms(smallAfter)}, ` +
        `${count(LARGE)} entries ${ms(largeAfter)}, ratio ${times(largeAfter / smallAfter)}`,
    );
    console.log(
      `  in the DOM with ${count(LARGE)} entries: ${count(dom.rows)} feed rows, ${count(dom.elements)} elements`,
    );

    await page.waitForTimeout(250);
    if (dom.rows === 0) throw new Error('the large task is not shown');
    const stream = await streamIntoTask(page, host, llm, large);
    const longest = Math.max(0, ...stream.longTasks);
    const over = stream.longTasks.filter((d) => d > LONG_TASK_TARGET_MS).length;
    console.log(
      `streaming ${count(DELTAS)} deltas into the ${count(LARGE)}-entry task (${(stream.ms / 1000).toFixed(1)} s to ` +
        `the result): longest main-thread task ${longest > 0 ? ms(longest) : `none over ${LONG_TASK_TARGET_MS} ms`} ` +
        `(target < ${LONG_TASK_TARGET_MS} ms) ${longest < LONG_TASK_TARGET_MS ? 'OK' : 'MISSED'}, ` +
        `${over} task(s) over ${LONG_TASK_TARGET_MS} ms`,
    );
    console.log(
      `  event-loop lag (10 ms interval) max ${ms(stream.maxLagMs)}; animation frames ${count(stream.frames)}, ` +
        `longest gap ${ms(stream.maxFrameGapMs)}`,
    );

    await page.waitForTimeout(250);
    const latency = await latencyIntoTask(page, host, llm, large, sent);
    if (latency.seen === 0) throw new Error(`none of the ${latency.sent} markers showed in the feed`);
    // The same on the short task: what the long one adds.
    await timeSwitch(page, small);
    await page.waitForTimeout(250);
    const smallLatency = await latencyIntoTask(page, host, llm, small, sent);
    const p95 = percentile(latency.shownMs, 95);
    const baseP95 = percentile(baseline.shownMs, 95);
    console.log(
      `stream-to-screen latency, ${LATENCY_CHUNKS} chunks ${LATENCY_CHUNK_MS} ms apart into the ${count(LARGE)}-entry ` +
        `task (scripted server's write → the marker in the feed): ${spread(latency.shownMs)} (target p95 ≤ ` +
        `${LATENCY_TARGET_MS} ms) ${p95 <= LATENCY_TARGET_MS ? 'OK' : 'MISSED'}; ${latency.seen} of ${latency.sent} ` +
        'markers seen',
    );
    console.log(
      `  of which write → the page's EventSource (the SDK, the engine's coalescing, the bridge): ` +
        `${spread(latency.receivedMs)}; received → in the feed (store, deferred render): ${spread(latency.renderMs)}`,
    );
    console.log(
      `  the host sent the ${latency.sent} chunks in ${latency.events} events (it gathers deltas before sending); ` +
        `the oldest chunk of each waited ${spread(latency.oldestInEventMs)}`,
    );
    console.log(
      `  on the ${SMALL}-entry task: ${spread(smallLatency.shownMs)} (${smallLatency.seen} of ${smallLatency.sent} seen)`,
    );
    console.log(
      `  baseline, a plain SSE round trip to a bare page (a Node server → EventSource → a div): ` +
        `${spread(baseline.shownMs)} (${baseline.seen} of ${baseline.sent} seen); p95 ratio ${times(p95 / baseP95)}`,
    );
  } finally {
    await browser?.close();
    await host?.stop();
    await llm.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
