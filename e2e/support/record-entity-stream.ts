// Records the fixture of the renderer's entity reducer test (src-renderer/src/store/entity-stream.fixture.json): the
// built headless host runs a task against the scripted model (a command approved from its request, a result, then a
// follow-up comment answered with text and a result) while this script reads every event over SSE as a window
// does; it reads the pages a window loads (the list, the latest chat page, the requests, the activity) while the
// request waits, and again at the end.
// Run: npm run build && npx tsx e2e/support/record-entity-stream.ts
import fs from 'node:fs';
import path from 'node:path';
import { startScriptedLlmServer } from '../../test-support/scripted-llm-server';
import { APP_ROOT, type HeadlessHost, startHeadlessHost } from './headless-host';

const OUT = path.join(APP_ROOT, 'src-renderer', 'src', 'store', 'entity-stream.fixture.json');
const API_KEY = 'sk-record';

async function main() {
  const llm = await startScriptedLlmServer({ apiKey: API_KEY });
  const host = await startHeadlessHost({
    MAESTRO_LLM_BASE_URL: llm.baseURL,
    MAESTRO_LLM_MODEL: 'scripted-record',
    MAESTRO_LLM_API_KEY: API_KEY,
  });
  const events: { type: string; taskId: string; jobId: string | null }[] = [];
  const controller = new AbortController();
  try {
    const reading = readEvents(host, controller.signal, (e) => events.push(e));
    await sleep(300);
    llm.push(
      {
        text: 'I will print it.',
        textChunks: 4,
        toolCalls: [{ name: 'run_command', arguments: { command: 'echo recorded' } }],
      },
      { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Printed **recorded**.' } }] },
    );
    const created = await host.call<{ task: { id: string } }>('POST', '/tasks', {
      instruction: 'Print a word in the shell.',
      title: 'Recorded task',
    });
    const taskId = created.body.task.id;
    const request = await until(async () => {
      const { body } = await host.call<{ requests: { id: string; status: string }[] }>(
        'GET',
        `/tasks/${taskId}/tool-requests`,
      );
      return body.requests.find((r) => r.status === 'pending');
    });
    // The pages a window opened while the card waits reads, and how many events had come before them.
    await sleep(300);
    const waiting = { afterEvents: events.length, ...(await readPages(host, taskId)) };
    await host.call('POST', `/tasks/${taskId}/tool-requests/${request.id}/decide`, { decision: 'approve' });
    await until(async () => (await latestStatus(host, taskId)) === 'succeeded');
    llm.push(
      { text: 'Looking again.', reasoning: 'The word was printed.', textChunks: 3 },
      { toolCalls: [{ name: 'complete', arguments: { status: 'success', message: 'Still printed.' } }] },
    );
    await host.call('POST', `/tasks/${taskId}/comments`, { body: 'Check once more, please.' });
    await until(async () => (await latestStatus(host, taskId)) === 'succeeded');
    await sleep(500);
    controller.abort();
    await reading.catch(() => undefined);
    const pages = await readPages(host, taskId);
    // Data, one line: the test parses it with zod (biome leaves *.fixture.json as recorded).
    fs.writeFileSync(OUT, `${JSON.stringify({ taskId, events, waiting, pages })}\n`);
    console.log(`recorded ${events.length} events of task ${taskId} → ${path.relative(APP_ROOT, OUT)}`);
  } finally {
    controller.abort();
    await host.stop();
    await llm.close();
  }
}

async function readPages(host: HeadlessHost, taskId: string) {
  return {
    listTasks: (await host.call('GET', '/tasks')).body,
    getTaskRecent: (await host.call('GET', `/tasks/${taskId}/recent`)).body,
    listToolRequests: (await host.call('GET', `/tasks/${taskId}/tool-requests`)).body,
    listPackageRequests: (await host.call('GET', `/tasks/${taskId}/package-requests`)).body,
    listTaskEvents: (await host.call('GET', `/tasks/${taskId}/events`)).body,
  };
}

async function latestStatus(host: HeadlessHost, taskId: string): Promise<string | undefined> {
  const { body } = await host.call<{ jobs: { status: string }[] }>('GET', `/tasks/${taskId}`);
  return body.jobs.at(-1)?.status;
}

/** The SSE stream of /api/local/events, one parsed event per data line. */
async function readEvents(host: HeadlessHost, signal: AbortSignal, take: (event: never) => void): Promise<void> {
  const response = await fetch(`${host.url}/api/local/events?token=${host.token}`, { signal });
  if (!response.body) throw new Error('no event stream');
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trimStart())
        .join('\n');
      if (data) take(JSON.parse(data) as never);
      end = buffer.indexOf('\n\n');
    }
  }
}

async function until<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await sleep(100);
  }
  throw new Error('timed out waiting for the host');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

void main();
