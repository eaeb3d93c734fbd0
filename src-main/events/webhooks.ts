// Webhooks: the notification projection's notices (waits, failed, succeeded, cancelled) POSTed as signed JSON to the
// URLs in `<dataDir>/webhooks.json`. Fire-and-forget: one bounded queue per URL, a timeout per attempt, retries with
// backoff, then a dropped delivery is a warning; a slow or broken target never holds up a job or another webhook.
import { createHmac, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AttentionProjection, AttentionReason, Notice } from './attention';

export const WEBHOOKS_FILE = 'webhooks.json';

export const WEBHOOK_EVENTS = ['task.waiting', 'task.succeeded', 'task.failed', 'task.cancelled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

const isHttpUrl = (value: string) => {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
};

// Messages never quote a value: a URL's path or a secret may be a credential.
const WebhookConfig = z
  .object({
    url: z.string().refine(isHttpUrl, { message: 'must be an http:// or https:// URL' }),
    secret: z.string().min(1, { message: 'must be a non-empty string' }),
    events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, { message: 'must list at least one event' }).optional(),
  })
  .strict();
export type WebhookConfig = z.infer<typeof WebhookConfig>;

const WebhooksFile = z.object({ webhooks: z.array(WebhookConfig) }).strict();

/** webhooks.json cannot be read or is not valid; the message names the file and the field, never a value. */
export class WebhooksFileError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`${file} ${problem}; webhooks are off`);
    this.name = new.target.name;
  }
}

/** The configured webhooks; null when the file does not exist. Throws WebhooksFileError. */
export function loadWebhooks(file: string): WebhookConfig[] | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new WebhooksFileError(file, `cannot be read (${code ?? 'error'})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new WebhooksFileError(file, 'is not valid JSON');
  }
  const parsed = WebhooksFile.safeParse(json);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${fieldName(i.path)}: ${i.message}`)
      .join('; ');
    throw new WebhooksFileError(file, `is not a valid webhooks file: ${detail}`);
  }
  return parsed.data.webhooks;
}

const fieldName = (at: readonly PropertyKey[]) =>
  at.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '') ||
  '(root)';

export interface DeliveryOptions {
  /** Per attempt, until the response headers arrive. */
  timeoutMs: number;
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Deliveries waiting per URL; beyond it the oldest waiting one is dropped. */
  queueLimit: number;
  warn: (message: string) => void;
  /** A delivery given up (after its attempts, or pushed out of a full queue): the timeline shows it. */
  dropped?: (failure: WebhookFailure) => void;
}

/** A delivery that was given up; `webhook` names it by position and origin only, like the logs. */
export interface WebhookFailure {
  taskId: string;
  jobId: string;
  webhook: string;
  event: WebhookEvent;
  attempts: number;
  reason: string;
}

export const DEFAULT_DELIVERY: DeliveryOptions = {
  timeoutMs: 5_000,
  attempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 30_000,
  queueLimit: 100,
  warn: (message) => console.warn(message),
};

export interface WebhookPayload {
  event: WebhookEvent;
  reason?: AttentionReason;
  taskId: string;
  jobId: string;
  title: string;
  body: string;
  ts: string;
}

interface Delivery {
  id: string;
  event: WebhookEvent;
  body: string;
  taskId: string;
  jobId: string;
}

interface Target {
  config: WebhookConfig;
  /** How logs name it: its position and origin (a URL's path may hold a token). */
  label: string;
  queue: Delivery[];
  pumping: Promise<void> | null;
}

type Outcome = { ok: true } | { ok: false; why: string; retry: boolean };

export function payloadFor(notice: Notice, ts = new Date().toISOString()): WebhookPayload {
  const { taskId, jobId, title, body } = notice;
  const kind = notice.kind;
  switch (kind) {
    case 'ask':
    case 'tool_request':
    case 'package_request':
    case 'mcp_auth_required':
    case 'browser':
      return { event: 'task.waiting', reason: kind, taskId, jobId, title, body, ts };
    case 'failed':
      return { event: 'task.failed', taskId, jobId, title, body, ts };
    case 'succeeded':
      return { event: 'task.succeeded', taskId, jobId, title, body, ts };
    case 'cancelled':
      return { event: 'task.cancelled', taskId, jobId, title, body, ts };
    default: {
      const never: never = kind;
      throw new Error(`unknown notice kind ${String(never)}`);
    }
  }
}

export const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export class WebhookNotifier {
  private readonly o: DeliveryOptions;
  private readonly targets: Target[];
  private readonly closing = new AbortController();
  private readonly disposers: (() => void)[] = [];

  constructor(webhooks: readonly WebhookConfig[], options: Partial<DeliveryOptions> = {}) {
    this.o = { ...DEFAULT_DELIVERY, ...options };
    this.targets = webhooks.map((config, i) => ({
      config,
      label: `webhook #${i + 1} (${new URL(config.url).origin})`,
      queue: [],
      pumping: null,
    }));
  }

  /** Sends the projection's notices from now on; the projection is disposed with the notifier. */
  follow(projection: AttentionProjection): this {
    const off = projection.onChange((notice) => {
      if (notice) this.notify(notice);
    });
    this.disposers.push(off);
    return this;
  }

  /** Queues the notice for every webhook that wants its event; returns at once and never throws. */
  notify(notice: Notice): void {
    if (this.closing.signal.aborted) return;
    try {
      const payload = payloadFor(notice);
      const delivery: Delivery = {
        id: randomUUID(),
        event: payload.event,
        body: JSON.stringify(payload),
        taskId: notice.taskId,
        jobId: notice.jobId,
      };
      for (const target of this.targets) {
        if (target.config.events && !target.config.events.includes(payload.event)) continue;
        if (target.queue.length >= this.o.queueLimit) {
          const dropped = target.queue.shift() as Delivery;
          this.o.warn(`${target.label}: queue full, delivery ${dropped.id} (${dropped.event}) dropped`);
          this.drop(target, dropped, 0, 'queue full');
        }
        target.queue.push(delivery);
        target.pumping ??= this.pump(target);
      }
    } catch (error) {
      this.o.warn(`webhooks: a notice could not be queued: ${(error as Error).name}`);
    }
  }

  /** Resolves when every queue is empty (tests, a graceful shutdown). */
  async idle(): Promise<void> {
    for (let busy = this.busy(); busy.length > 0; busy = this.busy()) await Promise.all(busy);
  }

  /** Stops following, aborts attempts in flight and drops what is queued. */
  dispose(): void {
    for (const off of this.disposers.splice(0)) off();
    this.closing.abort();
    for (const target of this.targets) target.queue.length = 0;
  }

  private busy(): Promise<void>[] {
    return this.targets.flatMap((t) => (t.pumping ? [t.pumping] : []));
  }

  /** One delivery at a time per URL, in order, so a hanging target only delays its own queue. */
  private async pump(target: Target): Promise<void> {
    await null; // the caller stores this promise before the loop can end and clear it
    try {
      for (let next = target.queue.shift(); next; next = target.queue.shift()) await this.deliver(target, next);
    } catch (error) {
      this.o.warn(`${target.label}: delivery loop failed: ${(error as Error).name}`);
      target.queue.length = 0;
    } finally {
      target.pumping = null;
    }
  }

  private async deliver(target: Target, delivery: Delivery): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      if (this.closing.signal.aborted) return;
      const outcome = await this.attempt(target, delivery);
      if (outcome.ok || this.closing.signal.aborted) return;
      if (!outcome.retry || attempt >= this.o.attempts) {
        this.o.warn(
          `${target.label}: delivery ${delivery.id} (${delivery.event}) dropped after ${attempt} ` +
            `attempt${attempt === 1 ? '' : 's'}: ${outcome.why}`,
        );
        this.drop(target, delivery, attempt, outcome.why);
        return;
      }
      await this.sleep(this.backoff(attempt));
    }
  }

  private async attempt(target: Target, delivery: Delivery): Promise<Outcome> {
    // The timeout and dispose() end the attempt themselves, besides aborting the fetch: an abort can fail to reach a
    // fetch in flight once its Request has been garbage-collected (nodejs/node#55428), and the URL's queue would hang.
    const controller = new AbortController();
    let timedOut = false;
    let stop: (reason: Error) => void = () => {};
    const stopped = new Promise<never>((_, reject) => {
      stop = (reason) => {
        controller.abort(reason);
        reject(reason);
      };
    });
    const timer = setTimeout(() => {
      timedOut = true;
      stop(new Error('timeout'));
    }, this.o.timeoutMs);
    const onClose = () => stop(new Error('closing'));
    this.closing.signal.addEventListener('abort', onClose, { once: true });
    try {
      const sent = fetch(target.config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'MAESTRO-Desktop',
          'x-maestro-event': delivery.event,
          'x-maestro-delivery': delivery.id,
          'x-maestro-signature': signature(target.config.secret, delivery.body),
        },
        body: delivery.body,
        redirect: 'manual',
        signal: controller.signal,
      });
      sent.catch(() => {}); // when the race below is lost, its rejection is not the news
      const response = await Promise.race([sent, stopped]);
      await response.body?.cancel().catch(() => {});
      if (response.status >= 200 && response.status < 300) return { ok: true };
      // A redirect or a refusal (other than timeout / rate limit) will not change on a retry.
      const retry = response.status >= 500 || response.status === 408 || response.status === 429;
      return { ok: false, why: `HTTP ${response.status}`, retry };
    } catch (error) {
      if (timedOut && !this.closing.signal.aborted) {
        return { ok: false, why: `no answer within ${this.o.timeoutMs} ms`, retry: true };
      }
      // Only the error code: a message may quote the URL.
      const cause = (error as { cause?: { code?: unknown } }).cause;
      const code = typeof cause?.code === 'string' ? cause.code : (error as Error).name;
      return { ok: false, why: code, retry: true };
    } finally {
      clearTimeout(timer);
      this.closing.signal.removeEventListener('abort', onClose);
    }
  }

  private drop(target: Target, delivery: Delivery, attempts: number, reason: string): void {
    try {
      const { taskId, jobId, event } = delivery;
      this.o.dropped?.({ taskId, jobId, webhook: target.label, event, attempts, reason });
    } catch (error) {
      this.o.warn(`${target.label}: the failure could not be recorded: ${(error as Error).name}`);
    }
  }

  /** Exponential backoff with jitter: between half and all of base·2^(attempt-1), capped. */
  private backoff(attempt: number): number {
    const ceiling = Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + (Math.random() * ceiling) / 2;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.closing.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref?.();
      this.closing.signal.addEventListener('abort', done, { once: true });
    });
  }
}

/**
 * Starts webhooks when `<dataDir>/webhooks.json` exists and lists any: a notification projection on the store and a
 * notifier following it. Never throws: a broken file is logged once and webhooks stay off.
 */
export function startWebhooks(
  projection: AttentionProjection,
  dataDir: string,
  options: Partial<DeliveryOptions> = {},
): WebhookNotifier | null {
  const warn = options.warn ?? DEFAULT_DELIVERY.warn;
  try {
    const webhooks = loadWebhooks(path.join(dataDir, WEBHOOKS_FILE));
    if (!webhooks?.length) return null;
    return new WebhookNotifier(webhooks, options).follow(projection);
  } catch (error) {
    warn(error instanceof WebhooksFileError ? error.message : `webhooks are off: ${(error as Error).name}`);
    return null;
  }
}
