// The openai SDK with the server's words kept: its status errors read the message from every error-body shape.
import OpenAI, { type APIError, type ClientOptions } from 'openai';
import type { LlmProfile } from './profiles';
import { serverMessage } from './server-message';

/**
 * The SDK keeps only `body.error` of a JSON error body, so a flat `{message}`, a `{detail}` or Gemini's array reads as
 * "400 status code (no body)". Here the error's `error` is `{message, code, type, param}` read from the whole body.
 */
export class ModelServerSdk extends OpenAI {
  protected override makeStatusError(
    status: number,
    body: object | undefined,
    text: string | undefined,
    headers: Headers,
  ): APIError {
    return super.makeStatusError(status, { error: errorFields(status, body ?? text) }, text, headers);
  }
}

/**
 * An SDK for one short request to a profile's server outside a job (its model list, a task's title): no retries, no
 * SDK logging, the profile's headers; `more` adds options such as a metered fetch.
 */
export function oneOffSdk(profile: LlmProfile, timeoutMs: number, more: ClientOptions = {}): ModelServerSdk {
  return new ModelServerSdk({
    baseURL: profile.baseURL,
    // The SDK refuses an empty key; local servers need none.
    apiKey: profile.apiKey || 'no-key',
    organization: null,
    project: null,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
    ...(profile.extraHeaders ? { defaultHeaders: profile.extraHeaders } : {}),
    ...more,
  });
}

function errorFields(status: number, body: unknown): Record<string, unknown> {
  const source = fieldsOf(body);
  const inner = fieldsOf(source.error);
  const pick = (key: string) => inner[key] ?? source[key];
  return {
    message: serverMessage(status, body),
    ...(typeof pick('code') === 'string' || typeof pick('code') === 'number' ? { code: String(pick('code')) } : {}),
    ...(typeof pick('type') === 'string' ? { type: pick('type') } : {}),
    ...(typeof pick('param') === 'string' ? { param: pick('param') } : {}),
  };
}

function fieldsOf(value: unknown): Record<string, unknown> {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'object' && first !== null ? (first as Record<string, unknown>) : {};
}
