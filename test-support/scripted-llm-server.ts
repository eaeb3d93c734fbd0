// Test support: a real OpenAI-compatible HTTP server on 127.0.0.1 that streams a scripted conversation over SSE.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MODEL, playFault, playRaw, playReply, sendError, sendJson } from './scripted-llm-replies';
import { commonPrefixLength, usageOf } from './scripted-llm-usage';

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as its JSON; a string is sent as is (so a test can send broken JSON). */
  arguments: Record<string, unknown> | string;
  id?: string;
}

export interface ScriptedUsage {
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
}

interface StepTiming {
  /** Wait before answering at all. */
  delayMs?: number;
  /** Wait between SSE chunks. */
  chunkDelayMs?: number;
}

export interface ScriptedReply extends StepTiming {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** How many content chunks the text is streamed in (default 3): a benchmark streams thousands of small deltas. */
  textChunks?: number;
  /** Overrides the deterministic defaults field by field; null sends no usage chunk (a backend ignoring it). */
  usage?: ScriptedUsage | null;
  /** Default: 'tool_calls' when there are tool calls, else 'stop'. */
  finishReason?: 'stop' | 'tool_calls' | 'length' | 'content_filter';
  /** Extra response headers (e.g. x-request-id). */
  headers?: Record<string, string>;
}

export type ScriptedFault = StepTiming &
  (
    | { fault: 'http'; status: number; message?: string; code?: string; body?: unknown }
    | { fault: 'rate_limit'; retryAfterSeconds?: number; message?: string }
    /** A few content chunks, then the socket is destroyed: no finish_reason, no [DONE]. */
    | { fault: 'cut'; text?: string }
    /** Content chunks, usage and a clean `[DONE]`, but no chunk carries a finish_reason. */
    | { fault: 'no_finish'; text?: string }
    /** The connection is dropped before any response: a network error to the client. */
    | { fault: 'reset' }
    /** Headers and one content chunk, then silence until the client goes away. */
    | { fault: 'hang'; text?: string }
  );

/**
 * A reply exactly as some server sends it (the provider corpus, test-support/provider-shapes/): a status, headers, and
 * either SSE events — an object is sent as `data: <its JSON>`, a string is written as is (`: comment` lines,
 * `data: [DONE]`, a broken frame) — or a whole body (a JSON error, an HTML page). `sse` ends the response after the
 * last event; `cut: true` destroys the socket instead.
 */
export interface RawReply extends StepTiming {
  raw: { status?: number; headers?: Record<string, string>; sse?: (object | string)[]; body?: string; cut?: boolean };
}

export type ScriptedStep = ScriptedReply | ScriptedFault | RawReply;
export type ScriptEntry = ScriptedStep | ((request: RecordedRequest) => ScriptedStep);

export interface RecordedRequest {
  /** 0-based, in arrival order. */
  index: number;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Exactly the bytes the client sent, for byte-level prefix tests. */
  rawBody: string;
  /** The parsed body, or null when it was not JSON. */
  body: ChatRequestBody | null;
  /** Epoch ms, to a fraction of a ms, when the body had arrived: intervals between requests time a client's loop. */
  receivedAt: number;
  /** Epoch ms when a streamed reply's last byte was written (unset for others): to the next arrival is the client's. */
  repliedAt?: number;
}

/** The parts of a chat completion request the server reads; the rest stays in `rawBody`. */
export interface ChatRequestBody {
  model?: string;
  messages?: unknown[];
  tools?: unknown[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  [key: string]: unknown;
}

export interface ScriptedLlmServerOptions {
  script?: ScriptEntry[];
  /** When set, every request must carry `Authorization: Bearer <apiKey>`, else it gets a 401 (the script is not consumed). */
  apiKey?: string;
  /** Time to first token: every reply sends its headers at once, then waits this long before its first chunk. */
  ttftMs?: number;
  /** The ids GET /v1/models lists (default: the one scripted model). */
  models?: string[];
  /** Fields a listed model's entry carries besides id, object, created, owned_by (e.g. `context_window`). */
  modelFields?: Record<string, Record<string, unknown>>;
  /** Called right after each chunk of a scripted reply is written: a benchmark times a chunk from when it left. */
  onChunk?: (chunk: SentChunk) => void;
  /**
   * The server's own check of each chat request, before the script: a step it returns answers the request and no
   * scripted step is consumed (a provider's 400 for a field missing in the conversation, whatever the script says).
   */
  refuse?: (request: RecordedRequest) => ScriptedStep | undefined;
  /**
   * Replies to non-streaming chat requests (a side request such as a new task's title), played in order as one JSON
   * completion each. They never take a step of `script`, so a conversation's script stays what the test wrote; with
   * none left such a request gets a 500 and is not counted as unscripted.
   */
  oneShot?: ScriptEntry[];
}

/** A chunk of a scripted reply as it was written. */
export interface SentChunk {
  /** The request it answers (RecordedRequest.index). */
  request: number;
  /** The chunk's `choices[0].delta`. */
  delta: Record<string, unknown>;
  /** Epoch ms, to a fraction of a ms (performance.timeOrigin + performance.now(), the clock a page's probe reads). */
  sentAt: number;
}

export interface ScriptedLlmServer {
  /** Base URL for the SDK: `http://127.0.0.1:<port>/v1`. */
  readonly baseURL: string;
  readonly port: number;
  /** Every chat request received, in order (also the ones answered with a fault or a 401). */
  readonly requests: RecordedRequest[];
  /** The model list's requests (`GET /v1/models`: a profile's test, the context window), in order; not in `requests`. */
  readonly modelListRequests: RecordedRequest[];
  /** Requests that found no step left; each got a 500. */
  readonly unscripted: RecordedRequest[];
  /** The non-streaming chat requests, in order (their own `index`); they are not in `requests`. */
  readonly oneShotRequests: RecordedRequest[];
  push(...steps: ScriptEntry[]): void;
  /** Adds replies for non-streaming requests (`oneShot`). */
  pushOneShot(...steps: ScriptEntry[]): void;
  /** Steps not yet played. */
  readonly remaining: number;
  /** How many `hang` replies ended because their client closed the request (a cancelled call). */
  readonly hangsEnded: number;
  /** Throws when steps are left or a request arrived with none left. */
  expectEmpty(): void;
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';
const MODELS_PATH = '/v1/models';

export async function startScriptedLlmServer(options: ScriptedLlmServerOptions = {}): Promise<ScriptedLlmServer> {
  const script: ScriptEntry[] = [...(options.script ?? [])];
  const requests: RecordedRequest[] = [];
  const unscripted: RecordedRequest[] = [];
  const oneShot: ScriptEntry[] = [...(options.oneShot ?? [])];
  const oneShotRequests: RecordedRequest[] = [];
  const modelListRequests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let hangsEnded = 0;
  let previousPrompt: string | null = null;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      const body = parseBody(rawBody);
      const side =
        req.method === 'POST' && req.url?.split('?')[0] === CHAT_PATH && body !== null && body.stream !== true;
      const list = side ? oneShotRequests : req.url?.split('?')[0] === MODELS_PATH ? modelListRequests : requests;
      const recorded: RecordedRequest = {
        index: list.length,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody,
        body,
        receivedAt: performance.timeOrigin + performance.now(),
      };
      list.push(recorded);
      void (side ? answerOneShot(recorded, res) : answer(recorded, res)).catch((err: unknown) => {
        if (!res.headersSent) sendError(res, 500, `scripted-llm-server failed: ${String(err)}`);
        else res.destroy();
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  async function answer(recorded: RecordedRequest, res: http.ServerResponse): Promise<void> {
    // GET /v1/models: the model list (a profile's "Test connection"); it checks the key and consumes no step.
    if (recorded.method === 'GET' && recorded.path.split('?')[0] === MODELS_PATH) {
      if (options.apiKey !== undefined && recorded.headers.authorization !== `Bearer ${options.apiKey}`) {
        return sendError(res, 401, 'scripted-llm-server: missing or wrong API key', 'invalid_api_key');
      }
      return sendJson(res, 200, {
        object: 'list',
        data: (options.models ?? [MODEL]).map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'scripted',
          ...options.modelFields?.[id],
        })),
      });
    }
    if (recorded.method !== 'POST' || recorded.path.split('?')[0] !== CHAT_PATH) {
      return sendError(res, 404, `scripted-llm-server: no route ${recorded.method} ${recorded.path}`, 'not_found');
    }
    if (options.apiKey !== undefined && recorded.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendError(res, 401, 'scripted-llm-server: missing or wrong API key', 'invalid_api_key');
    }
    const refusal = options.refuse?.(recorded);
    if (refusal) return playStep(refusal, recorded, res, 0);
    const entry = script.shift();
    if (entry === undefined) {
      unscripted.push(recorded);
      return sendError(
        res,
        500,
        `scripted-llm-server: request #${recorded.index} arrived but no scripted step is left`,
      );
    }
    const step = typeof entry === 'function' ? entry(recorded) : entry;
    // What a backend tokenizes, in its order — the tools, then the messages — compared with the previous request.
    const prompt = JSON.stringify(recorded.body?.tools ?? []) + JSON.stringify(recorded.body?.messages ?? []);
    const cachedChars = previousPrompt === null ? 0 : commonPrefixLength(previousPrompt, prompt);
    previousPrompt = prompt;
    return playStep(step, recorded, res, cachedChars);
  }

  async function answerOneShot(recorded: RecordedRequest, res: http.ServerResponse): Promise<void> {
    if (options.apiKey !== undefined && recorded.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendError(res, 401, 'scripted-llm-server: missing or wrong API key', 'invalid_api_key');
    }
    const entry = oneShot.shift();
    if (entry === undefined) {
      return sendError(res, 500, `scripted-llm-server: one-shot request #${recorded.index} has no scripted reply`);
    }
    const step = typeof entry === 'function' ? entry(recorded) : entry;
    if (step.delayMs) await sleep(step.delayMs);
    if ('fault' in step) return playFault(step, recorded, res, 0);
    if ('raw' in step) return playRaw(step, res);
    return sendJson(res, 200, {
      id: `chatcmpl-scripted-oneshot-${recorded.index}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: recorded.body?.model ?? MODEL,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: step.text ?? '', refusal: null },
          logprobs: null,
          finish_reason: step.finishReason ?? 'stop',
        },
      ],
      usage: usageOf(recorded, step.text ?? '', 0, step.usage ?? {}),
    });
  }

  async function playStep(
    step: ScriptedStep,
    recorded: RecordedRequest,
    res: http.ServerResponse,
    cachedChars: number,
  ) {
    if (step.delayMs) await sleep(step.delayMs);
    if ('fault' in step && step.fault === 'hang') {
      await playFault(step, recorded, res, cachedChars);
      hangsEnded++;
      return;
    }
    if ('fault' in step) return playFault(step, recorded, res, cachedChars);
    if ('raw' in step) return playRaw(step, res);
    return playReply(step, recorded, res, cachedChars, options.ttftMs ?? 0, options.onChunk);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    unscripted,
    oneShotRequests,
    modelListRequests,
    push: (...steps) => {
      script.push(...steps);
    },
    pushOneShot: (...steps) => {
      oneShot.push(...steps);
    },
    get remaining() {
      return script.length;
    },
    get hangsEnded() {
      return hangsEnded;
    },
    expectEmpty() {
      const problems: string[] = [];
      if (script.length > 0) problems.push(`${script.length} scripted step(s) were never requested`);
      if (unscripted.length > 0) problems.push(`${unscripted.length} request(s) arrived with no scripted step left`);
      if (problems.length > 0) throw new Error(`scripted-llm-server: ${problems.join('; ')}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function parseBody(raw: string): ChatRequestBody | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed !== null && typeof parsed === 'object' ? (parsed as ChatRequestBody) : null;
  } catch {
    return null;
  }
}
