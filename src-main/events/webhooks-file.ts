// `<dataDir>/webhooks.json`: the URLs the notification projection's notices are POSTed to, each with its secret and
// the events it wants. Read once at start; a broken file names the file and the field, never a value.
import { z } from 'zod';
import { brokenFileError, type FieldName, readJsonFile } from '../workspace/json-file';

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

/** Fields as the file's reader sees them: `webhooks[0].url`. */
const fieldName: FieldName = (at) =>
  at.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');

/** The configured webhooks; null when the file does not exist. Throws ConfigFileError ("…; webhooks are off"). */
export function loadWebhooks(file: string): WebhookConfig[] | null {
  const read = readJsonFile(file, WebhooksFile, fieldName);
  if (read.kind === 'absent') return null;
  if (read.kind === 'broken') throw brokenFileError(file, read, { what: 'webhooks file', instead: 'webhooks are off' });
  return read.value.webhooks;
}
