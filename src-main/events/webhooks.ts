// Webhooks on: when `<dataDir>/webhooks.json` lists any, the notification projection's notices (waits, failed,
// succeeded, cancelled) are followed and handed to a WebhookNotifier. The file: webhooks-file.ts; what is sent:
// webhook-payload.ts; the queues and retries: webhook-delivery.ts.
import path from 'node:path';
import { ConfigFileError } from '../workspace/json-file';
import type { AttentionProjection } from './attention';
import { DEFAULT_DELIVERY, type DeliveryOptions, WebhookNotifier } from './webhook-delivery';
import { loadWebhooks, WEBHOOKS_FILE } from './webhooks-file';

/** Webhooks that follow the projection; disposing stops following and drops what is still queued. */
export interface Webhooks {
  readonly notifier: WebhookNotifier;
  dispose(): void;
}

/** Starts webhooks when the data dir's file lists any. Never throws: a broken file is logged once, webhooks stay off. */
export function startWebhooks(
  projection: AttentionProjection,
  dataDir: string,
  options: Partial<DeliveryOptions> = {},
): Webhooks | null {
  const warn = options.warn ?? DEFAULT_DELIVERY.warn;
  try {
    const webhooks = loadWebhooks(path.join(dataDir, WEBHOOKS_FILE));
    if (!webhooks?.length) return null;
    const notifier = new WebhookNotifier(webhooks, options);
    const off = projection.onChange((notice) => {
      if (notice) notifier.notify(notice);
    });
    return {
      notifier,
      dispose: () => {
        off();
        notifier.dispose();
      },
    };
  } catch (error) {
    warn(error instanceof ConfigFileError ? error.message : `webhooks are off: ${(error as Error).name}`);
    return null;
  }
}
