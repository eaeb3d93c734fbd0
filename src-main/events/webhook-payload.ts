// What a webhook receives: the JSON body made from a notice, and its signature (HMAC-SHA256 of the body with the
// webhook's secret, sent as `x-maestro-signature: sha256=<hex>`). Its title and body are the model's words: they go out
// through the untrusted-text renderer, hidden characters as ⟨U+…⟩, so the receiving chat or log shows what was there.
import { createHmac } from 'node:crypto';
import { assertNever } from '../../src-shared/assert-never';
import { plainUntrusted } from '../../src-shared/untrusted-text';
import type { AttentionReason, Notice } from './attention';
import type { WebhookEvent } from './webhooks-file';

export interface WebhookPayload {
  event: WebhookEvent;
  reason?: AttentionReason;
  taskId: string;
  jobId: string;
  title: string;
  body: string;
  ts: string;
}

export function payloadFor(notice: Notice, ts = new Date().toISOString()): WebhookPayload {
  const { taskId, jobId } = notice;
  const title = plainUntrusted(notice.title, { multiline: false });
  const body = plainUntrusted(notice.body);
  const kind = notice.kind;
  switch (kind) {
    case 'ask':
    case 'tool_request':
    case 'package_request':
    case 'mcp_auth_required':
    case 'browser':
    case 'settings':
      return { event: 'task.waiting', reason: kind, taskId, jobId, title, body, ts };
    case 'failed':
      return { event: 'task.failed', taskId, jobId, title, body, ts };
    case 'succeeded':
      return { event: 'task.succeeded', taskId, jobId, title, body, ts };
    case 'cancelled':
      return { event: 'task.cancelled', taskId, jobId, title, body, ts };
    default:
      return assertNever(kind, 'notice kind');
  }
}

export const signature = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
