// The webhook notifier: one bounded queue per URL, delivered one at a time in order, each delivery tried a few times
// with backoff, then dropped with a warning. Fire-and-forget: a slow or broken target never holds up a job or
// another webhook.
import { randomUUID } from 'node:crypto';
import type { Notice } from './attention';
import { attemptDelivery, type Delivery } from './webhook-attempt';
import { payloadFor } from './webhook-payload';
import type { WebhookConfig, WebhookEvent } from './webhooks-file';

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

interface Target {
  config: WebhookConfig;
  /** How logs name it: its position and origin (a URL's path may hold a token). */
  label: string;
  queue: Delivery[];
  pumping: Promise<void> | null;
}

export class WebhookNotifier {
  private readonly o: DeliveryOptions;
  private readonly targets: Target[];
  private readonly closing = new AbortController();

  constructor(webhooks: readonly WebhookConfig[], options: Partial<DeliveryOptions> = {}) {
    this.o = { ...DEFAULT_DELIVERY, ...options };
    this.targets = webhooks.map((config, i) => ({
      config,
      label: `webhook #${i + 1} (${new URL(config.url).origin})`,
      queue: [],
      pumping: null,
    }));
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

  /** Aborts attempts in flight and drops what is queued. */
  dispose(): void {
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
    const closing = this.closing.signal;
    for (let attempt = 1; ; attempt++) {
      if (closing.aborted) return;
      const outcome = await attemptDelivery(target.config, delivery, this.o.timeoutMs, closing);
      if (outcome.ok || closing.aborted) return;
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
