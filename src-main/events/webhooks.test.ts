import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { complete, engineHarness, SETTLED } from '../../test-support/engine-harness';
import { tempDir, testMaestro } from '../../test-support/temp-maestro';
import { ConfigFileError } from '../workspace/json-file';
import type { Notice } from './attention';
import { WebhookNotifier } from './webhook-delivery';
import { startWebhooks } from './webhooks';
import { loadWebhooks, WEBHOOKS_FILE, type WebhookConfig } from './webhooks-file';

const SECRET = 'whsec-do-not-log-me';

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

interface Target {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

const targets: Target[] = [];
afterEach(async () => {
  for (const t of targets.splice(0)) await t.close();
});

/** A webhook receiver on 127.0.0.1; `answer(n)` gives the status of the n-th request (1-based), or 'hang'. */
async function receiver(answer: (n: number) => number | 'hang' = () => 200): Promise<Target> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = answer(hits.length);
      if (status !== 'hang') res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const target: Target = {
    url: `http://127.0.0.1:${port}/hooks/private-token-path`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  targets.push(target);
  return target;
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const notice = (kind: Notice['kind'], taskId = 'task-1'): Notice => ({
  taskId,
  jobId: `job-of-${taskId}`,
  kind,
  title: `Deploy ${kind}`,
  body: `about ${kind}`,
});

const hook = (url: string, extra: Partial<WebhookConfig> = {}): WebhookConfig => ({ url, secret: SECRET, ...extra });

const fast = { timeoutMs: 2_000, attempts: 4, baseDelayMs: 5, maxDelayMs: 20 };

function writeWebhooks(dataDir: string, content: unknown): string {
  const file = path.join(dataDir, WEBHOOKS_FILE);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

describe('webhooks', () => {
  it('P10.12 a waiting_human notice and the success after it reach the URL from webhooks.json, signed', async () => {
    const target = await receiver();
    const dataDir = tempDir();
    writeWebhooks(dataDir, { webhooks: [{ url: target.url, secret: SECRET }] });
    const h = await engineHarness([complete('Which branch?', 'needs_user_input'), complete('Pushed.')], { dataDir });

    const { taskId, jobId } = h.createTask('Push the release');
    await h.waitFor(jobId, SETTLED);
    await until(() => target.hits.length === 1);
    const [hit] = target.hits;
    if (!hit) throw new Error('no delivery');
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['x-maestro-event']).toBe('task.waiting');
    expect(hit.headers['x-maestro-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    const expected = createHmac('sha256', SECRET).update(hit.body).digest('hex');
    expect(hit.headers['x-maestro-signature']).toBe(`sha256=${expected}`);
    const payload = JSON.parse(hit.body);
    expect(payload).toMatchObject({ event: 'task.waiting', reason: 'ask', taskId, jobId, body: 'Which branch?' });
    expect(payload.title).toContain('asks you a question');
    expect(Number.isNaN(Date.parse(payload.ts))).toBe(false);

    const followup = h.maestro.invoke('addComment', { taskId, body: 'main' }).job?.id as string;
    await h.waitFor(followup, ['succeeded']);
    await until(() => target.hits.length === 2);
    expect(JSON.parse(target.hits[1]?.body ?? '')).toMatchObject({
      event: 'task.succeeded',
      taskId,
      jobId: followup,
      body: 'Pushed.',
    });
    expect(target.hits[1]?.headers['x-maestro-event']).toBe('task.succeeded');
    expect(target.hits[1]?.headers['x-maestro-delivery']).not.toBe(hit.headers['x-maestro-delivery']);
  });

  it('P10.13 a target answering 500 twice then 200 gets exactly 3 deliveries with the same id and body', async () => {
    const target = await receiver((n) => (n <= 2 ? 500 : 200));
    const warn = vi.fn();
    const notifier = new WebhookNotifier([hook(target.url)], { ...fast, warn });
    notifier.notify(notice('failed'));
    await notifier.idle();
    expect(target.hits).toHaveLength(3);
    const ids = new Set(target.hits.map((h) => h.headers['x-maestro-delivery']));
    const bodies = new Set(target.hits.map((h) => h.body));
    const signatures = new Set(target.hits.map((h) => h.headers['x-maestro-signature']));
    expect([ids.size, bodies.size, signatures.size]).toEqual([1, 1, 1]);
    expect(JSON.parse(target.hits[0]?.body ?? '')).toMatchObject({ event: 'task.failed', body: 'about failed' });
    expect(warn).not.toHaveBeenCalled();
    notifier.dispose();
  });

  it('P10.13 a target failing every attempt is dropped with a warning that holds no secret and no URL path', async () => {
    const target = await receiver(() => 503);
    const warn = vi.fn();
    const dropped = vi.fn();
    const notifier = new WebhookNotifier([hook(target.url)], { ...fast, attempts: 3, warn, dropped });
    notifier.notify(notice('cancelled'));
    await notifier.idle();
    expect(target.hits).toHaveLength(3);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(dropped.mock.calls).toEqual([
      [
        {
          taskId: 'task-1',
          jobId: expect.any(String),
          webhook: expect.stringMatching(/^webhook #1 \(http:\/\/127\.0\.0\.1:\d+\)$/),
          event: 'task.cancelled',
          attempts: 3,
          reason: 'HTTP 503',
        },
      ],
    ]);
    expect(JSON.stringify(dropped.mock.calls)).not.toContain('private-token-path');
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toMatch(/webhook #1 \(http:\/\/127\.0\.0\.1:\d+\): delivery .* \(task\.cancelled\) dropped/);
    expect(message).toContain('after 3 attempts: HTTP 503');
    expect(message).not.toContain(SECRET);
    expect(message).not.toContain('private-token-path');
    notifier.dispose();
  });

  it('P10.13 a hanging target times out and is retried while a second webhook gets its delivery promptly', async () => {
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    const warn = vi.fn();
    const notifier = new WebhookNotifier([hook(hanging.url), hook(healthy.url)], {
      timeoutMs: 300,
      attempts: 2,
      baseDelayMs: 10,
      maxDelayMs: 10,
      warn,
    });
    const start = Date.now();
    notifier.notify(notice('ask'));
    notifier.notify(notice('succeeded', 'task-2'));
    expect(Date.now() - start).toBeLessThan(50); // fire-and-forget: the caller never waits
    await until(() => healthy.hits.length === 2, 1_000);
    expect(healthy.hits.map((h) => h.headers['x-maestro-event'])).toEqual(['task.waiting', 'task.succeeded']);
    expect(Math.max(...healthy.hits.map((h) => h.at)) - start).toBeLessThan(300); // before the first timeout
    expect(hanging.hits).toHaveLength(1);

    await notifier.idle();
    // Each of the two notices: timed out, retried once, dropped (one queue per URL, in order).
    expect(hanging.hits).toHaveLength(4);
    expect(new Set(hanging.hits.map((h) => h.headers['x-maestro-delivery'])).size).toBe(2);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(String(warn.mock.calls[0]?.[0])).toContain('dropped after 2 attempts: no answer within 300 ms');
    expect(healthy.hits).toHaveLength(2);
    notifier.dispose();
  });

  it('P10.13 a hanging target times out even when garbage collection runs while it hangs', async () => {
    // An abort can fail to reach a fetch in flight once its Request was collected (nodejs/node#55428): the attempt
    // must end at its timeout anyway, or the URL's queue hangs for good.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const hanging = await receiver(() => 'hang');
    const warn = vi.fn();
    const notifier = new WebhookNotifier([hook(hanging.url)], { ...fast, timeoutMs: 200, attempts: 1, warn });
    notifier.notify(notice('failed'));
    await until(() => hanging.hits.length === 1);
    for (let i = 0; i < 5; i++) {
      gc();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const idle = notifier.idle().then(() => 'idle');
    const late = new Promise((resolve) => setTimeout(() => resolve('still hanging'), 2_000));
    expect(await Promise.race([idle, late])).toBe('idle');
    expect(String(warn.mock.calls[0]?.[0])).toContain('no answer within 200 ms');
    notifier.dispose();
  });

  it('P10.13 the queue per URL is bounded (oldest waiting dropped) and dispose aborts what is in flight', async () => {
    const hanging = await receiver(() => 'hang');
    const warn = vi.fn();
    const notifier = new WebhookNotifier([hook(hanging.url)], { ...fast, timeoutMs: 10_000, queueLimit: 2, warn });
    notifier.notify(notice('failed', 'a'));
    await until(() => hanging.hits.length === 1);
    // 'a' is in flight; 'b' and 'c' wait; 'd' pushes 'b' out.
    for (const id of ['b', 'c', 'd']) notifier.notify(notice('failed', id));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('queue full');
    const start = Date.now();
    notifier.dispose();
    await notifier.idle();
    expect(Date.now() - start).toBeLessThan(1_000);
    expect(hanging.hits).toHaveLength(1);
    notifier.notify(notice('failed', 'e'));
    await notifier.idle();
    expect(hanging.hits).toHaveLength(1);
  });

  it('P10.13 a job finishes on time while its webhook hangs; a healthy webhook still hears of it', async () => {
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    const dataDir = tempDir();
    writeWebhooks(dataDir, { webhooks: [hook(hanging.url), hook(healthy.url)] });
    const h = await engineHarness([complete('Deployed.')], { dataDir });
    const { jobId } = h.createTask('Deploy');
    await h.waitFor(jobId, ['succeeded'], 2_000);
    await until(() => healthy.hits.length === 1, 2_000);
    expect(JSON.parse(healthy.hits[0]?.body ?? '')).toMatchObject({ event: 'task.succeeded', jobId });
    expect(hanging.hits).toHaveLength(1);
  });

  it("P10.13 a delivery given up shows in the task's timeline as webhook.failed, naming the webhook by origin only", async () => {
    const refusing = await receiver(() => 400); // a refusal is not retried: given up after one attempt
    const dataDir = tempDir();
    writeWebhooks(dataDir, { webhooks: [hook(`${refusing.url}`)] });
    const h = await engineHarness([complete('Deployed.')], { dataDir });
    const { taskId, jobId } = h.createTask('Deploy');
    await h.waitFor(jobId, ['succeeded'], 2_000);
    const failed = () =>
      h.maestro.invoke('listTaskEvents', { taskId }).events.filter((e) => e.type === 'webhook.failed');
    await until(() => failed().length === 1, 2_000);
    expect(failed()[0]).toMatchObject({
      taskId,
      jobId,
      event: 'task.succeeded',
      attempts: 1,
      reason: 'HTTP 400',
      webhook: expect.stringMatching(/^webhook #1 \(http:\/\/127\.0\.0\.1:\d+\)$/),
    });
    expect(JSON.stringify(failed())).not.toContain('private-token-path');
    expect(JSON.stringify(failed())).not.toContain(SECRET);
  });

  it('P10.12 the events filter: a webhook hears only the events it lists', async () => {
    const failures = await receiver();
    const everything = await receiver();
    const notifier = new WebhookNotifier(
      [hook(failures.url, { events: ['task.failed', 'task.cancelled'] }), hook(everything.url)],
      fast,
    );
    for (const kind of ['tool_request', 'failed', 'succeeded', 'cancelled', 'package_request'] as const) {
      notifier.notify(notice(kind));
    }
    await notifier.idle();
    expect(failures.hits.map((h) => h.headers['x-maestro-event'])).toEqual(['task.failed', 'task.cancelled']);
    expect(everything.hits.map((h) => JSON.parse(h.body).event)).toEqual([
      'task.waiting',
      'task.failed',
      'task.succeeded',
      'task.cancelled',
      'task.waiting',
    ]);
    expect(everything.hits.map((h) => JSON.parse(h.body).reason)).toEqual([
      'tool_request',
      undefined,
      undefined,
      undefined,
      'package_request',
    ]);
    notifier.dispose();
  });

  it('P10.12 a broken webhooks.json is an error naming the file and the field, never a value', () => {
    const dataDir = tempDir();
    const cases: [unknown, string][] = [
      ['{ "webhooks": [', 'is not valid JSON'],
      [{ webhooks: [{ url: 'ftp://example.com/x', secret: SECRET }] }, 'webhooks[0].url: must be an http'],
      [{ webhooks: [hook('https://example.com/a'), { url: 'https://example.com/b' }] }, 'webhooks[1].secret'],
      [{ webhooks: [hook('https://example.com/a', { events: ['task.done' as never] })] }, 'webhooks[0].events[0]'],
      [{ webhooks: [{ ...hook('https://example.com/a'), secrets: SECRET }] }, 'webhooks[0]: Unrecognized key'],
      [{ hooks: [] }, 'webhooks'],
    ];
    for (const [content, field] of cases) {
      const file = writeWebhooks(dataDir, content);
      let error: unknown;
      try {
        loadWebhooks(file);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigFileError);
      const message = (error as Error).message;
      expect(message).toContain(file);
      expect(message).toContain(field);
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain('example.com');
    }
    expect(loadWebhooks(path.join(tempDir(), WEBHOOKS_FILE))).toBeNull();
  });

  it('P10.12 a broken webhooks.json is logged once, leaves webhooks off, and the app starts', () => {
    const dataDir = tempDir();
    const file = writeWebhooks(dataDir, { webhooks: [{ url: 'mailto:me@example.com', secret: SECRET }] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const maestro = testMaestro({ dataDir });
      expect(maestro.store).toBeDefined();
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain(`${file} is not a valid webhooks file: webhooks[0].url`);
      expect(String(warn.mock.calls[0]?.[0])).toContain('webhooks are off');
    } finally {
      warn.mockRestore();
    }
    const log = vi.fn();
    expect(startWebhooks(testMaestro().attention, dataDir, { warn: log })).toBeNull();
    expect(log).toHaveBeenCalledTimes(1);
  });
});
