// One delivery attempt to a webhook: a signed POST that ends on its own within the timeout or when the notifier
// closes, and says whether trying again may help. A failure is told by its status or error code, never its URL.
import { signature } from './webhook-payload';
import type { WebhookEvent } from './webhooks-file';

export interface Delivery {
  id: string;
  event: WebhookEvent;
  body: string;
  taskId: string;
  jobId: string;
}

export type Outcome = { ok: true } | { ok: false; why: string; retry: boolean };

export async function attemptDelivery(
  target: { url: string; secret: string },
  delivery: Delivery,
  timeoutMs: number,
  closing: AbortSignal,
): Promise<Outcome> {
  // The timeout and closing end the attempt themselves, besides aborting the fetch: an abort can fail to reach a
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
  }, timeoutMs);
  const onClose = () => stop(new Error('closing'));
  closing.addEventListener('abort', onClose, { once: true });
  try {
    const sent = fetch(target.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'MAESTRO-Desktop',
        'x-maestro-event': delivery.event,
        'x-maestro-delivery': delivery.id,
        'x-maestro-signature': signature(target.secret, delivery.body),
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
    if (timedOut && !closing.aborted) return { ok: false, why: `no answer within ${timeoutMs} ms`, retry: true };
    // Only the error code: a message may quote the URL.
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const code = typeof cause?.code === 'string' ? cause.code : (error as Error).name;
    return { ok: false, why: code, retry: true };
  } finally {
    clearTimeout(timer);
    closing.removeEventListener('abort', onClose);
  }
}
