// JSON over the bridge's HTTP: a request's body, read up to MAX_BODY_BYTES (malformed JSON and a body too large are the
// caller's errors, and neither is echoed back: the body may hold anything), and a JSON answer.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MaestroError } from '../../src-shared/errors';

/** 25 MiB of attachments is ~33.4 MiB of base64, plus the rest of the JSON. */
export const MAX_BODY_BYTES = 40 * 1024 * 1024;

/** The parsed body; `{}` when it is empty. */
export function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => new MaestroError('payload_too_large', `the body is larger than ${MAX_BODY_BYTES} bytes`);
    const declared = Number(req.headers['content-length']);
    if (declared > MAX_BODY_BYTES) {
      // Drain what the client sends so it can read the answer; the connection is not reused.
      req.resume();
      return reject(tooLarge());
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        done = true;
        chunks.length = 0;
        return reject(tooLarge());
      }
      chunks.push(chunk);
    });
    req.on('error', (error) => {
      done = true;
      reject(error);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        // The parser's message quotes the body, which may hold anything: never echo it.
        reject(
          new MaestroError('invalid_input', 'the body is not valid JSON', [
            { path: [], message: 'must be valid JSON' },
          ]),
        );
      }
    });
  });
}

/** A JSON answer that is never cached or sniffed; a 413 closes the connection (the rest of the body is not read). */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  res.end(body);
}
