// The LLM client of one profile: an AgentTurn's generation as 1..N LlmCalls with identical input (retries).
import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { OptionalParameter, SentBack } from '../../src-shared/contract/profiles';
import { askedBack } from './asked-back';
import { CapacityAborted, ProfileCapacity } from './capacity';
import { LlmError } from './errors';
import { hintFor } from './hints';
import { runLlmCall } from './llm-call';
import { meteredFetch } from './metered-fetch';
import { ENV_PROFILE, type LlmProfile } from './profiles';
import { rejectedParameters } from './rejected-parameters';
import { breachMessage, type ReplyLimits, replyLimitsOf } from './reply-limits';
import { requestBody } from './request-body';
import { type AttemptFailure, DEFAULT_RETRY, type RetryOptions, retryDelayMs } from './retry';
import { ModelServerSdk } from './sdk';
import { checkTokenLimit, type TokenCounter, tokenCounterFor } from './tokens';
import type { LlmCallOutcome, LlmCallRecord, LlmHooks, LlmRequest, LlmResult, LlmUsage } from './types';

export interface LlmClientOptions {
  profile: LlmProfile;
  retry?: Partial<RetryOptions>;
  /** Receives one `prompt_cache …` line per LlmCall. Default: console.debug. */
  log?: (line: string) => void;
  /** Tokens kept free for the answer in the client-side context check. Default 1024. */
  outputReserveTokens?: number;
  /** Longest silence before the response starts and between chunks. Default 5 minutes (local models are slow). */
  idleTimeoutMs?: number;
  /** For jitter; tests make it deterministic. */
  random?: () => number;
  /** The profile's capacity, shared by every client of the profile (capacity.ts). Default: one of its own. */
  capacity?: ProfileCapacity;
  /** How long a generation may wait out a server's 429s before it fails like any retried error. Default 15 min. */
  maxThrottledMs?: number;
}

export class LlmClient {
  private readonly sdk: OpenAI;
  private readonly retry: RetryOptions;
  private readonly log: (line: string) => void;
  private readonly idleTimeoutMs: number;
  private readonly limits: ReplyLimits;
  private calls = 0;
  private tokens: TokenCounter | undefined;
  /** When an LlmCall first found no server, until one answers again: how long the outage has lasted. */
  private unreachableSince: number | undefined;
  /** Optional parameters the server refused: left out of every request (issue 12). */
  private readonly rejected: Set<OptionalParameter>;
  /** Extras the server asked back in a 400: sent back in every request (issue 21). */
  private readonly sendBack: Set<SentBack>;
  private readonly capacity: ProfileCapacity;

  constructor(private readonly options: LlmClientOptions) {
    const { profile } = options;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.log = options.log ?? ((line) => console.debug(line));
    this.idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
    this.limits = replyLimitsOf(profile);
    this.rejected = new Set(profile.rejectedParameters);
    this.sendBack = new Set(profile.sendBack);
    const capacity = options.capacity ?? new ProfileCapacity(profile.maxConcurrentCalls);
    this.capacity = capacity;
    this.sdk = new ModelServerSdk({
      baseURL: profile.baseURL,
      // The SDK refuses an empty key; local servers need none.
      apiKey: profile.apiKey || 'no-key',
      organization: null,
      project: null,
      maxRetries: 0, // every attempt is ours, so every attempt is an LlmCall on record
      timeout: this.idleTimeoutMs + 1_000,
      logLevel: 'off',
      // Every response's rate-limit headers reach the profile's capacity, which pauses before the server refuses.
      fetch: meteredFetch(async (input, init) => {
        const response = await fetch(input, init);
        capacity.observe(response.headers);
        return response;
      }),
      ...(profile.extraHeaders ? { defaultHeaders: profile.extraHeaders } : {}),
    });
  }

  /** What the profile's model takes besides text. */
  get media(): LlmProfile['media'] {
    return this.options.profile.media;
  }

  /** LlmCalls this client has made. */
  get llmCallCount(): number {
    return this.calls;
  }

  /**
   * Streams one generation. Recoverable failures (network, 5xx, 429, a cut or unfinished stream) are retried with
   * the very same request body, each attempt a new LlmCall; throws LlmError otherwise.
   */
  async generate(request: LlmRequest, hooks: LlmHooks = {}): Promise<LlmResult> {
    const { profile } = this.options;
    const tools = request.tools ?? [];
    if (profile.contextWindow !== undefined) {
      this.tokens ??= tokenCounterFor(profile.model);
      const reserve = this.options.outputReserveTokens ?? 1024;
      checkTokenLimit(request.messages, tools, profile.contextWindow, reserve, this.tokens);
    }
    let body = this.body(request);
    let dropped = false;
    let added = false;
    const calls: LlmCallRecord[] = [];
    let callNumber = this.calls;
    /** Attempts answered 429: waited out on the profile's capacity, not counted against maxRetries. */
    let throttled = 0;
    const throttledSince = Date.now();
    for (let attempt = 1; ; attempt++) {
      if (request.signal?.aborted) throw this.aborted(calls);
      let release: () => void;
      try {
        release = await this.capacity.acquire(request.signal, (wait) => hooks.onCapacityWait?.(wait));
      } catch (error) {
        if (error instanceof CapacityAborted) throw this.aborted(calls);
        throw error;
      }
      callNumber++;
      this.calls++;
      const startedAt = Date.now();
      hooks.onLlmCallStart?.({ callNumber, attempt, startedAt });
      const result = await runLlmCall({
        sdk: this.sdk,
        body,
        signal: request.signal,
        idleTimeoutMs: this.idleTimeoutMs,
        limits: this.limits,
        callNumber,
        onDelta: (d) => hooks.onDelta?.(d),
      }).finally(release);
      const base = {
        callNumber,
        attempt,
        startedAt,
        latencyMs: Date.now() - startedAt,
        ttftMs: result.ttftMs,
        usage: result.usage,
        profile: profile.name,
        requestModel: profile.model,
        ...(result.model ? { model: result.model } : {}),
        ...(result.requestId ? { requestId: result.requestId } : {}),
      };
      if (result.ok) {
        this.capacity.succeeded();
        this.unreachableSince = undefined;
        const record: LlmCallRecord = { ...base, outcome: 'ok', finishReason: result.output.finishReason };
        this.end(record, calls, hooks);
        return { ...result.output, usage: sumUsage(calls), calls };
      }
      const failure = result.failure;
      if (failure.disposition === 'unreachable') this.unreachableSince ??= startedAt;
      else if (failure.disposition !== 'aborted') this.unreachableSince = undefined;
      const rejected = dropped ? [] : this.rejectedBy(failure, body);
      const asked = added || rejected.length > 0 ? [] : this.askedBy(failure, body, request);
      if (rejected.length > 0 || asked.length > 0) {
        // Sent again at once without the parameters, or with the extras: another LlmCall of this AgentTurn, the
        // profile remembering what it learned.
        const status = failure.status !== undefined ? { status: failure.status } : {};
        this.end({ ...base, outcome: 'retryable_error', error: this.redact(failure.message), ...status }, calls, hooks);
        if (rejected.length > 0) {
          dropped = true;
          for (const p of rejected) this.rejected.add(p);
          this.options.profile.rememberRejected?.(rejected);
        } else {
          added = true;
          for (const e of asked) this.sendBack.add(e);
          this.options.profile.rememberSendBack?.(asked);
        }
        body = this.body(request);
        continue;
      }
      // A 429 is the server's capacity, not this request's fault: the profile pauses (every job of it with it) and
      // the call waits its turn, for as long as maxThrottledMs; the pause is the capacity's to wait, not this loop's.
      const maxThrottledMs = this.options.maxThrottledMs ?? 15 * 60_000;
      if (failure.status === 429 && Date.now() - throttledSince < maxThrottledMs) {
        throttled++;
        const asked = failure.retryAfterMs;
        const pause = this.capacity.throttled(
          asked === undefined ? undefined : Math.min(asked, this.retry.maxRetryAfterMs),
        );
        const record: LlmCallRecord = {
          ...base,
          outcome: 'retryable_error',
          error: this.redact(failure.message),
          status: 429,
          retryInMs: pause,
        };
        this.end(record, calls, hooks);
        continue;
      }
      const transient = failure.disposition === 'retry' || failure.disposition === 'unreachable';
      const retries = attempt - throttled;
      const retrying = transient && retries <= this.retry.maxRetries;
      const waitMs = retrying ? retryDelayMs(retries, failure, this.retry, this.options.random) : undefined;
      const record: LlmCallRecord = {
        ...base,
        outcome: OUTCOME[failure.disposition],
        error: this.redact(failure.message),
        ...(failure.status !== undefined ? { status: failure.status } : {}),
        ...(waitMs !== undefined ? { retryInMs: waitMs } : {}),
      };
      this.end(record, calls, hooks);
      if (waitMs === undefined) throw this.failed(failure, calls);
      try {
        await sleep(waitMs, undefined, { signal: request.signal }); // rejects at once on abort
      } catch {
        throw this.aborted(calls);
      }
    }
  }

  /** Built once per generate(), so every LlmCall of the AgentTurn sends the same bytes. */
  private body(
    request: LlmRequest,
    sendBack: ReadonlySet<SentBack> = this.sendBack,
  ): ChatCompletionCreateParamsStreaming {
    return requestBody(this.options.profile, request, { rejected: this.rejected, sendBack });
  }

  /**
   * The extras a 400/422 answer to `body` asks for that are not sent yet and that this conversation has: adding them
   * changes the request. Empty for any other refusal, which then fails as before.
   */
  private askedBy(failure: AttemptFailure, body: ChatCompletionCreateParamsStreaming, request: LlmRequest): SentBack[] {
    if (failure.status !== 400 && failure.status !== 422) return [];
    const asked = askedBack(failure.message).filter((e) => !this.sendBack.has(e));
    if (asked.length === 0) return [];
    const sent = JSON.stringify(body.messages);
    return asked.filter((e) => JSON.stringify(this.body(request, new Set([...this.sendBack, e])).messages) !== sent);
  }

  /** The optional parameters a 400/422 answer to `body` names. */
  private rejectedBy(failure: AttemptFailure, body: ChatCompletionCreateParamsStreaming): OptionalParameter[] {
    if (failure.status !== 400 && failure.status !== 422) return [];
    return rejectedParameters(failure.message, body); // the server's own words (ModelServerSdk keeps them)
  }

  private end(record: LlmCallRecord, calls: LlmCallRecord[], hooks: LlmHooks): void {
    calls.push(record);
    const cached = record.usage?.cachedPromptTokens ?? 0;
    const prompt = record.usage?.promptTokens ?? 0;
    const pct = prompt > 0 ? Math.round((100 * cached) / prompt) : 0;
    this.log(
      `prompt_cache reused=${cached} prompt=${prompt} pct=${pct} llm_call=${record.callNumber} attempt=${record.attempt} outcome=${record.outcome}${record.usage ? '' : ' usage=unreported'}`,
    );
    hooks.onLlmCallEnd?.(record);
  }

  private failed(failure: AttemptFailure, calls: LlmCallRecord[]): LlmError {
    const { profile } = this.options;
    const status = failure.status !== undefined ? { status: failure.status } : {};
    const message = this.redact(failure.message);
    const found = hintFor({ message: failure.message, ...status }, profile);
    const hint = found === undefined ? {} : { hint: this.redact(found) };
    const said = (text: string) => this.redact(found === undefined ? text : `${text} — ${found}`);
    switch (failure.disposition) {
      case 'retry':
        return new LlmError('retries_exhausted', said(`LLM failed after ${calls.length} LlmCalls: ${message}`), {
          ...status,
          ...hint,
          calls,
        });
      case 'unreachable':
        return new LlmError('unreachable', said(`LLM server unreachable at ${profile.baseURL}: ${message}`), {
          ...status,
          ...hint,
          calls,
          outageMs: Date.now() - (this.unreachableSince ?? Date.now()),
        });
      case 'terminal':
        return new LlmError('terminal', said(`LLM request refused: ${message}`), { ...status, ...hint, calls });
      case 'context_overflow':
        return new LlmError('context_overflow', said(`LLM context overflow: ${message}`), {
          ...status,
          ...hint,
          calls,
        });
      case 'limit': {
        const breach = failure.breach ?? { limit: 'maxReplyBytes', value: this.limits.maxReplyBytes };
        const message = breachMessage(breach, profile.name, profile.name === ENV_PROFILE);
        return new LlmError('limit', this.redact(message), { calls, breach });
      }
      case 'aborted':
        return this.aborted(calls);
      default: {
        const never: never = failure.disposition;
        throw new Error(`unknown disposition ${String(never)}`);
      }
    }
  }

  private aborted(calls: LlmCallRecord[]): LlmError {
    return new LlmError('aborted', 'LLM generation aborted', { calls });
  }

  /** The API key never leaves in a message, even when a backend echoes it back. */
  private redact(text: string): string {
    const key = this.options.profile.apiKey;
    return key ? text.split(key).join('[redacted]') : text;
  }
}

const OUTCOME: Record<AttemptFailure['disposition'], LlmCallOutcome> = {
  retry: 'retryable_error',
  unreachable: 'retryable_error',
  terminal: 'terminal_error',
  context_overflow: 'terminal_error',
  limit: 'terminal_error',
  aborted: 'aborted',
};

function sumUsage(calls: readonly LlmCallRecord[]): LlmUsage {
  const sum: LlmUsage = { promptTokens: 0, completionTokens: 0, cachedPromptTokens: 0 };
  for (const c of calls) {
    if (!c.usage) continue;
    sum.promptTokens += c.usage.promptTokens;
    sum.completionTokens += c.usage.completionTokens;
    sum.cachedPromptTokens += c.usage.cachedPromptTokens;
    if (c.usage.reasoningTokens !== undefined)
      sum.reasoningTokens = (sum.reasoningTokens ?? 0) + c.usage.reasoningTokens;
  }
  return sum;
}
