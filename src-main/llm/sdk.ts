// The openai SDK with the server's words kept: its status errors read the message from every error-body shape.
import OpenAI, { type APIError } from 'openai';
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
