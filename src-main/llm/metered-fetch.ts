// The fetch the openai SDK is given: a request that carries a ReplyMeter gets its response body counted as the bytes
// arrive — the whole reply and the SSE event being read — and cut with a ReplyLimitError before any parser (the SDK's
// SSE decoder, JSON.parse) sees a byte past a limit.
import type OpenAI from 'openai';
import { eventCap, type ReplyLimitBreach, ReplyLimitError, type ReplyLimits } from './reply-limits';

/** Where a request carries its meter: a key of the SDK's `fetchOptions`, which it spreads into fetch's init. */
export const REPLY_METER = Symbol('maestro.replyMeter');

const LF = 0x0a;
const CR = 0x0d;

/** Counts one response body; `onBreach` hears the first limit passed. */
export class ReplyMeter {
  private total = 0;
  /** Bytes of the SSE event being read, and of its current line. */
  private event = 0;
  private line = 0;
  private lastByte = -1;
  private readonly maxEvent: number;
  breach: ReplyLimitBreach | undefined;

  constructor(
    private readonly limits: ReplyLimits,
    private readonly onBreach: (breach: ReplyLimitBreach) => void = () => {},
  ) {
    this.maxEvent = eventCap(limits);
  }

  /** Throws ReplyLimitError when `chunk` takes the reply or its event past a limit. */
  count(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (this.total > this.limits.maxReplyBytes) this.fail('maxReplyBytes', this.limits.maxReplyBytes);
    let start = 0;
    for (;;) {
      const lf = chunk.indexOf(LF, start);
      if (lf === -1) break;
      const length = this.line + (lf - start);
      const before = lf > start ? chunk[lf - 1] : this.lastByte;
      // An empty line ("\n" or "\r\n") ends the event.
      const empty = length === 0 || (length === 1 && before === CR);
      this.event += lf - start + 1;
      if (this.event > this.maxEvent) this.fail('maxToolArgumentBytes', this.limits.maxToolArgumentBytes);
      if (empty) this.event = 0;
      this.line = 0;
      start = lf + 1;
    }
    this.line += chunk.length - start;
    this.event += chunk.length - start;
    if (chunk.length > 0) this.lastByte = chunk[chunk.length - 1] as number;
    if (this.event > this.maxEvent) this.fail('maxToolArgumentBytes', this.limits.maxToolArgumentBytes);
  }

  private fail(limit: ReplyLimitBreach['limit'], value: number): never {
    this.breach ??= { limit, value };
    this.onBreach(this.breach);
    throw new ReplyLimitError(this.breach);
  }
}

type Fetch = typeof fetch;
type FetchOptions = NonNullable<ConstructorParameters<typeof OpenAI>[0]>['fetchOptions'];

/** The SDK's `fetchOptions` of a request whose reply `meter` counts (the SDK passes unknown keys on to fetch). */
export const meteredRequest = (meter: ReplyMeter): FetchOptions => ({ [REPLY_METER]: meter }) as FetchOptions;

/** `base` (default: the global fetch) with the body of every metered request counted on its way to the reader. */
export function meteredFetch(base: Fetch = fetch): Fetch {
  return async (input, init) => {
    const meter = (init as Record<symbol, unknown> | undefined)?.[REPLY_METER];
    if (!(meter instanceof ReplyMeter)) return base(input, init);
    const { [REPLY_METER]: _meter, ...rest } = init as RequestInit & Record<symbol, unknown>;
    const response = await base(input, rest);
    const body = response.body;
    if (!body) return response;
    if (!response.ok) {
      // An error body is read whole by the SDK (text()): counted through a stream of its own. Rare, so cost is no issue.
      const counted = body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            meter.count(chunk);
            controller.enqueue(chunk);
          },
        }),
      );
      const { status, statusText, headers } = response;
      return new Response(counted, { status, statusText, headers });
    }
    // A stream is read by iterating `body` (the SDK's ReadableStreamToAsyncIterable takes any async iterable): one
    // more await per chunk, where a piped stream costs several.
    Object.defineProperty(response, 'body', { value: meteredIterable(body, meter) });
    return response;
  };
}

/** The chunks of `body`, each counted before it is handed on; a limit passed cancels the body (closing the socket). */
function meteredIterable(body: ReadableStream<Uint8Array>, meter: ReplyMeter): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const chunks = body[Symbol.asyncIterator]();
      return {
        async next() {
          const next = await chunks.next();
          if (next.done) return next;
          try {
            meter.count(next.value);
          } catch (error) {
            await chunks.return?.();
            throw error;
          }
          return next;
        },
        return: async () => (await chunks.return?.()) ?? { done: true, value: undefined },
      };
    },
  };
}
