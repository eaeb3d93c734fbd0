// Test support: how the scripted LLM server plays a step: a reply as SSE chunks, a fault, a raw reply, an error.
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RawReply, RecordedRequest, ScriptedFault, ScriptedReply, SentChunk } from './scripted-llm-server';
import { usageOf } from './scripted-llm-usage';

export const MODEL = 'scripted-model';

export async function playRaw({ raw, chunkDelayMs }: RawReply, res: http.ServerResponse): Promise<void> {
  const streamed = raw.sse !== undefined;
  res.writeHead(raw.status ?? 200, {
    'content-type': streamed ? 'text/event-stream' : 'application/json',
    ...(streamed ? { 'cache-control': 'no-cache', connection: 'keep-alive' } : {}),
    ...raw.headers,
  });
  if (!streamed) {
    res.end(raw.body ?? '');
    return;
  }
  for (const event of raw.sse ?? []) {
    res.write(typeof event === 'string' ? `${event}\n\n` : `data: ${JSON.stringify(event)}\n\n`);
    if (chunkDelayMs) await sleep(chunkDelayMs);
  }
  if (raw.cut) res.socket?.destroy();
  else res.end();
}

export async function playFault(
  step: ScriptedFault,
  req: RecordedRequest,
  res: http.ServerResponse,
  cachedChars: number,
): Promise<void> {
  switch (step.fault) {
    case 'http':
      if (step.body !== undefined) return sendJson(res, step.status, step.body);
      return sendError(res, step.status, step.message ?? defaultMessage(step.status, req), step.code);
    case 'rate_limit':
      return sendError(res, 429, step.message ?? 'Rate limit reached (scripted)', 'rate_limit_exceeded', {
        'retry-after': String(step.retryAfterSeconds ?? 1),
      });
    case 'reset':
      res.socket?.destroy();
      return;
    case 'cut': {
      const sse = openSse(res, req);
      for (const piece of split(step.text ?? 'partial answer that never ends', 3).slice(0, 2)) {
        sse.chunk({ content: piece });
        await sleep(step.chunkDelayMs ?? 5);
      }
      res.socket?.destroy();
      return;
    }
    case 'no_finish': {
      const sse = openSse(res, req);
      const text = step.text ?? 'an answer without a finish reason';
      for (const piece of split(text, 3)) {
        sse.chunk({ content: piece });
        if (step.chunkDelayMs) await sleep(step.chunkDelayMs);
      }
      if (req.body?.stream_options?.include_usage) sse.usage(usageOf(req, text, cachedChars));
      sse.done();
      return;
    }
    case 'hang': {
      const sse = openSse(res, req);
      sse.chunk({ content: step.text ?? 'thinking' });
      await new Promise<void>((resolve) => res.on('close', resolve));
      return;
    }
    default: {
      const never: never = step;
      throw new Error(`unknown fault ${JSON.stringify(never)}`);
    }
  }
}

export async function playReply(
  step: ScriptedReply,
  req: RecordedRequest,
  res: http.ServerResponse,
  cachedChars: number,
  ttftMs: number,
  onChunk?: (chunk: SentChunk) => void,
): Promise<void> {
  const sse = openSse(res, req, step.headers, onChunk);
  if (ttftMs > 0) {
    res.flushHeaders();
    await sleep(ttftMs);
  }
  const pause = () => (step.chunkDelayMs ? sleep(step.chunkDelayMs) : Promise.resolve());
  for (const piece of split(step.reasoning ?? '', 3)) {
    sse.chunk({ reasoning_content: piece });
    await pause();
  }
  for (const piece of split(step.text ?? '', step.textChunks ?? 3)) {
    sse.chunk({ content: piece });
    await pause();
  }
  const calls = (step.toolCalls ?? []).map((c, i) => ({
    id: c.id ?? `call_scripted_${req.index}_${i}`,
    name: c.name,
    arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
  }));
  for (const [index, call] of calls.entries()) {
    split(call.arguments, 3).forEach((args, part) => {
      const fn = part === 0 ? { name: call.name, arguments: args } : { arguments: args };
      const head = part === 0 ? { id: call.id, type: 'function' } : {};
      sse.chunk({ tool_calls: [{ index, ...head, function: fn }] });
    });
    await pause();
  }
  const finishReason = step.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  sse.chunk({}, finishReason);
  if (req.body?.stream_options?.include_usage && step.usage !== null) {
    const generated = (step.text ?? '') + (step.reasoning ?? '') + calls.map((c) => c.name + c.arguments).join('');
    sse.usage(usageOf(req, generated, cachedChars, step.usage));
  }
  sse.done();
}

interface Sse {
  chunk(delta: Record<string, unknown>, finishReason?: string): void;
  usage(usage: ReturnType<typeof usageOf>): void;
  done(): void;
}

function openSse(
  res: http.ServerResponse,
  req: RecordedRequest,
  headers: Record<string, string> = {},
  onChunk?: (chunk: SentChunk) => void,
): Sse {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    'x-request-id': `req_scripted_${req.index}`,
    ...headers,
  });
  const id = `chatcmpl-scripted-${req.index}`;
  const created = Math.floor(Date.now() / 1000);
  const model = req.body?.model ?? MODEL;
  const withUsage = req.body?.stream_options?.include_usage === true;
  let first = true;
  const write = (payload: Record<string, unknown>) => {
    if (!res.destroyed) res.write(`data: ${JSON.stringify(payload)}\n\n`);
  };
  return {
    chunk(delta, finishReason) {
      const d = first ? { role: 'assistant', ...delta } : delta;
      first = false;
      write({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [{ index: 0, delta: d, logprobs: null, finish_reason: finishReason ?? null }],
        ...(withUsage ? { usage: null } : {}),
      });
      onChunk?.({ request: req.index, delta: d, sentAt: performance.timeOrigin + performance.now() });
    },
    usage(usage) {
      write({ id, object: 'chat.completion.chunk', created, model, choices: [], usage });
    },
    done() {
      if (!res.destroyed) res.end('data: [DONE]\n\n');
      req.repliedAt = performance.timeOrigin + performance.now();
    },
  };
}

export function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

export function sendError(
  res: http.ServerResponse,
  status: number,
  message: string,
  code?: string,
  headers: Record<string, string> = {},
): void {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, status, { error: { message, type, param: null, code: code ?? null } }, headers);
}

function defaultMessage(status: number, req: RecordedRequest): string {
  switch (status) {
    case 401:
      return 'Incorrect API key provided (scripted).';
    case 404:
      return `The model \`${req.body?.model ?? MODEL}\` does not exist or you do not have access to it.`;
    case 400:
      return 'Invalid request (scripted).';
    default:
      return `Scripted HTTP ${status}.`;
  }
}

/** Splits `text` into up to `parts` non-empty pieces (none for an empty string). */
export function split(text: string, parts: number): string[] {
  if (text === '') return [];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
