// LLM profiles made in the app: listed (never a key), saved, deleted, and tested against their endpoint.
import { z } from 'zod';
import { JobErrorCode } from '../entities';
import { ModelPrices } from '../model-prices';
import { empty, NonBlank, op } from './operation';

/** A profile name: also a path segment and a job's `profile` column. */
export const ProfileName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
    'must be 1–64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );

/** The kinds of OpenAI-compatible backend a profile can name; what each is sent is src-main/llm/provider-kinds.ts. */
export const ProviderKind = z.enum([
  'generic',
  'openai',
  'openrouter',
  'deepseek',
  'moonshot',
  'gemini',
  'mistral',
  'groq',
  'llamacpp',
  'ollama',
  'lmstudio',
  'vllm',
]);
export type ProviderKind = z.infer<typeof ProviderKind>;

/**
 * What the New-profile form fills in per kind: the provider's documented OpenAI-compatible base URL, or a local
 * server's default port (README "Providers" cites where each comes from).
 */
export const PROVIDER_PRESETS: Record<ProviderKind, { label: string; baseURL: string }> = {
  generic: { label: 'Generic (OpenAI-compatible)', baseURL: '' },
  openai: { label: 'OpenAI', baseURL: 'https://api.openai.com/v1' },
  openrouter: { label: 'OpenRouter', baseURL: 'https://openrouter.ai/api/v1' },
  deepseek: { label: 'DeepSeek', baseURL: 'https://api.deepseek.com' },
  moonshot: { label: 'Moonshot (Kimi)', baseURL: 'https://api.moonshot.ai/v1' },
  gemini: { label: 'Google Gemini', baseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/' },
  mistral: { label: 'Mistral', baseURL: 'https://api.mistral.ai/v1' },
  groq: { label: 'Groq', baseURL: 'https://api.groq.com/openai/v1' },
  llamacpp: { label: 'llama.cpp server', baseURL: 'http://127.0.0.1:8080/v1' },
  ollama: { label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' },
  lmstudio: { label: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1' },
  vllm: { label: 'vLLM', baseURL: 'http://127.0.0.1:8000/v1' },
};

export const DEFAULT_PROVIDER_KIND: ProviderKind = 'generic';

/**
 * Hosts that name their server beyond doubt: a generic profile pointed at one is sent what that kind is sent (the
 * kind a person picks always wins). Exact host names only: `api.deepseek.com.example` is not DeepSeek. Local servers
 * are not recognised (a port says nothing about which server listens).
 */
const KNOWN_HOSTS: Readonly<Record<string, ProviderKind>> = {
  'api.openai.com': 'openai',
  'openrouter.ai': 'openrouter',
  'api.deepseek.com': 'deepseek',
  'api.moonshot.ai': 'moonshot',
  'api.moonshot.cn': 'moonshot',
  'generativelanguage.googleapis.com': 'gemini',
  'api.mistral.ai': 'mistral',
  'api.groq.com': 'groq',
};

/** Base URLs already looked at (a request body asks on every generation; a host has a handful of profiles). */
const kindsOfBaseURLs = new Map<string, ProviderKind | undefined>();

/** The kind a base URL's host names; undefined for any other host or a URL that does not parse. */
export function kindOfBaseURL(baseURL: string): ProviderKind | undefined {
  if (kindsOfBaseURLs.has(baseURL)) return kindsOfBaseURLs.get(baseURL);
  const kind = URL.canParse(baseURL) ? KNOWN_HOSTS[new URL(baseURL).hostname.toLowerCase()] : undefined;
  if (kindsOfBaseURLs.size >= 64) kindsOfBaseURLs.clear();
  kindsOfBaseURLs.set(baseURL, kind);
  return kind;
}

/** How a profile's requests are built: its kind, or for a generic profile the kind its base URL names. */
export function effectiveKind(profile: { kind?: ProviderKind | undefined; baseURL: string }): ProviderKind {
  const kind = profile.kind ?? DEFAULT_PROVIDER_KIND;
  return kind === 'generic' ? (kindOfBaseURL(profile.baseURL) ?? kind) : kind;
}

/** The optional request parameters a server may reject; one it rejected is never sent again for the profile. */
export const OptionalParameter = z.enum(['stream_options', 'parallel_tool_calls', 'temperature']);
export type OptionalParameter = z.infer<typeof OptionalParameter>;

/**
 * What a server streamed beside an assistant message that it may need back in the next request:
 * - `reasoning_content_on_tool_turns`: `reasoning_content` on assistant messages with tool calls (DeepSeek and Kimi
 *   thinking modes answer 400 without it; without tool calls it is ignored).
 * - `reasoning_details`: OpenRouter's reasoning blocks, as sent.
 * - `extra_content`: Gemini's thought signatures, on the message and on each call.
 * Each kind sends some back from the start; a server whose 400 names one gets it from then on (the profile remembers).
 */
export const SentBack = z.enum(['reasoning_content_on_tool_turns', 'reasoning_details', 'extra_content']);
export type SentBack = z.infer<typeof SentBack>;

/** An LLM profile as every output shows it: never the key, only whether there is one and its last 4 characters. */
/** Media a model can be given besides text. */
export const MediaKind = z.enum(['image', 'audio']);
export type MediaKind = z.infer<typeof MediaKind>;

/**
 * What one LlmCall of a profile may spend (issue 21): the bytes of its reply as they arrive (SSE framing included), the
 * bytes of one tool call's arguments (and of one streamed event), and its total time however steadily bytes trickle in.
 * A profile without a value gets these. Reaching one ends the call with an error naming it; it is never retried.
 * 1 MiB of arguments is more than any model's output limit lets it write in one call (about 250,000 tokens), and small
 * enough that the SDK's SSE parser, whose cost grows with the square of an event's size, stays in milliseconds.
 */
export const REPLY_LIMIT_DEFAULTS = {
  maxReplyBytes: 32 * 1024 * 1024,
  maxToolArgumentBytes: 1024 * 1024,
  maxCallSeconds: 30 * 60,
} as const;

/** The range each limit may be set in: below, a normal reply would not fit; above, the limit protects nothing. */
export const ReplyLimitFields = {
  maxReplyBytes: z
    .number()
    .int()
    .min(64 * 1024)
    .max(1024 * 1024 * 1024),
  maxToolArgumentBytes: z
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024),
  maxCallSeconds: z
    .number()
    .int()
    .min(1)
    .max(24 * 3600),
};
export type ReplyLimitName = keyof typeof ReplyLimitFields;

/** LlmCalls of one profile at once, across all jobs (src-main/llm/capacity.ts); absent: no limit but the server's. */
export const MaxConcurrentCalls = z.number().int().min(1).max(1000);

export const ProfileView = z.object({
  name: z.string(),
  baseURL: z.string(),
  model: z.string(),
  kind: ProviderKind,
  /** A generic profile whose base URL names a known server: the kind its requests are built as (kindOfBaseURL). */
  actsAs: ProviderKind.optional(),
  contextWindow: z.number().int().optional(),
  temperature: z.number().optional(),
  parallelToolCalls: z.boolean().optional(),
  /** What the model takes besides text: tool results' images and audio reach it as content parts (else described). */
  media: z.array(MediaKind).optional(),
  /** Parameters the server answered 400/422 to, no longer sent. */
  rejectedParameters: z.array(OptionalParameter).optional(),
  /** What the server's 400 asked back beyond the kind's own, sent back from then on. */
  sendBack: z.array(SentBack).optional(),
  /** Absent: REPLY_LIMIT_DEFAULTS's. */
  maxReplyBytes: z.number().int().optional(),
  maxToolArgumentBytes: z.number().int().optional(),
  maxCallSeconds: z.number().int().optional(),
  maxConcurrentCalls: z.number().int().optional(),
  /** The model's prices set on the profile (USD per million tokens); absent: its preset's, if it has one. */
  prices: ModelPrices.optional(),
  hasKey: z.boolean(),
  keyHint: z.string().nullable(),
  source: z.enum(['env', 'saved']),
  isDefault: z.boolean(),
});
export type ProfileView = z.infer<typeof ProfileView>;

/** A profiles file that could not be read: the env profile is still listed, the saved ones are not. */
export const ProfileLoadError = z.object({ file: z.string(), message: z.string() });

const BaseURL = z
  .string()
  .trim()
  .max(2048)
  .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), 'must be an http:// or https:// URL');
const ApiKey = z
  .string()
  .max(4096)
  .refine(
    (k) => [...k].every((c) => c.charCodeAt(0) > 0x20 && c.charCodeAt(0) !== 0x7f),
    'must not contain spaces or control characters',
  );

export const SaveProfileInput = z
  .object({
    name: ProfileName,
    baseURL: BaseURL,
    model: NonBlank(200),
    /** Absent: the profile's kind as saved, `generic` for a new one. */
    kind: ProviderKind.optional(),
    /** Absent: keep the stored key. Empty: remove it. The value never appears in any output. */
    apiKey: ApiKey.optional(),
    contextWindow: z.number().int().min(256).max(100_000_000).optional(),
    temperature: z.number().min(0).max(2).optional(),
    parallelToolCalls: z.boolean().optional(),
    /** Absent or empty: the model takes text only. */
    media: z
      .array(MediaKind)
      .max(2)
      .refine((m) => new Set(m).size === m.length, 'must not name a kind twice')
      .optional(),
    /** Absent: the default (REPLY_LIMIT_DEFAULTS). */
    maxReplyBytes: ReplyLimitFields.maxReplyBytes.optional(),
    maxToolArgumentBytes: ReplyLimitFields.maxToolArgumentBytes.optional(),
    maxCallSeconds: ReplyLimitFields.maxCallSeconds.optional(),
    /** Absent: no limit of our own (the server's 429s still pause the profile's calls). */
    maxConcurrentCalls: MaxConcurrentCalls.optional(),
    /** The model's prices in USD per million tokens (input, cached input, output); absent: the preset's, if any. */
    prices: ModelPrices.optional(),
    makeDefault: z.boolean().optional(),
  })
  .strict();

/**
 * A profile not saved yet (or being edited): what "Test connection" and the model picker ask the server with. Without
 * `apiKey`, the stored key of profile `name` is used, but only when `baseURL` is that profile's own: a stored key is
 * never sent to another server.
 */
export const ProfileDraft = z
  .object({
    baseURL: BaseURL,
    kind: ProviderKind.optional(),
    apiKey: ApiKey.optional(),
    name: ProfileName.optional(),
  })
  .strict();

/** What a connection test answers: the server's model ids, or why it could not list them (never holding the key). */
export const ProfileCheckResult = z.object({
  ok: z.boolean(),
  models: z.array(z.string()),
  /** The context windows the server's list states, by model id (only where it says). */
  contextWindows: z.record(z.string(), z.number().int().positive()).optional(),
  error: z.string().optional(),
  /** What the person can fix, when known: the key was refused, or no server answered. */
  code: JobErrorCode.optional(),
});

export const profileOperations = {
  listProfiles: op({
    method: 'GET',
    path: '/profiles',
    status: 200,
    input: empty,
    output: z.object({ profiles: z.array(ProfileView), errors: z.array(ProfileLoadError) }),
  }),
  saveProfile: op({
    method: 'POST',
    path: '/profiles',
    status: 201,
    input: SaveProfileInput,
    output: z.object({ profile: ProfileView }),
  }),
  deleteProfile: op({
    method: 'POST',
    path: '/profiles/:name/delete',
    status: 200,
    input: z.object({ name: ProfileName }).strict(),
    output: z.object({ ok: z.literal(true) }),
  }),
  testProfile: op({
    method: 'POST',
    path: '/profiles/:name/test',
    status: 200,
    input: z.object({ name: ProfileName }).strict(),
    output: ProfileCheckResult,
  }),
  /** GET {baseURL}/models of a draft profile, through main (the renderer has no network): the test before saving. */
  listModels: op({
    method: 'POST',
    path: '/profiles/models',
    status: 200,
    input: ProfileDraft,
    output: ProfileCheckResult,
  }),
};
