// LLM profiles a job can name: the one from the environment (`env`) and the ones saved in the app (profile-store.ts).
// Every change bumps `version` and tells the `onChange` listeners, so whoever caches per profile can drop stale entries.
import type { ProfileView } from '../../src-shared/contract';
import {
  DEFAULT_PROVIDER_KIND,
  effectiveKind,
  MediaKind,
  type OptionalParameter,
  ProviderKind,
  type SentBack,
} from '../../src-shared/contract/profiles';
import type { ModelPrices } from '../../src-shared/model-prices';
import type { ProfileChange, ProfileStore, StoredLearning } from './profile-store';
import { replyLimitsFromEnv } from './reply-limits';

export interface LlmProfile {
  name: string;
  baseURL: string;
  model: string;
  /**
   * Decides which optional parameters are sent and which extras go back (provider-kinds.ts); absent: generic, which
   * acts as the kind its base URL names, if it names one (effectiveKind).
   */
  kind?: ProviderKind;
  /** Never logged, never stored in clear, never sent anywhere but the profile's base URL. */
  apiKey: string;
  /** The model's context window in tokens; when set, a request estimated above it is refused before sending. */
  contextWindow?: number;
  temperature?: number;
  /** Sent as `parallel_tool_calls` when the request has tools; omitted when unset (some backends reject it). */
  parallelToolCalls?: boolean;
  /** What the model takes besides text (tool results' images, audio); absent: text only. */
  media?: MediaKind[];
  /** Extra HTTP headers sent with every request of this profile. */
  extraHeaders?: Record<string, string>;
  /** Optional parameters the server rejected: never sent. */
  rejectedParameters?: OptionalParameter[];
  /** Extras the server asked back in a 400 beyond the kind's own: sent from the start. */
  sendBack?: SentBack[];
  /** What one LlmCall may spend (reply-limits.ts); absent: REPLY_LIMIT_DEFAULTS's. */
  maxReplyBytes?: number;
  maxToolArgumentBytes?: number;
  maxCallSeconds?: number;
  /** LlmCalls at once across all jobs (capacity.ts); absent: no limit but the server's 429s. */
  maxConcurrentCalls?: number;
  /** The model's prices (USD per million tokens); absent: its preset's, if any (src-shared/pricing.ts). */
  prices?: ModelPrices;
  /** Set by the registry: remembers parameters the server rejected (profiles.json, or memory for the env profile). */
  rememberRejected?(parameters: readonly OptionalParameter[]): void;
  /** Set by the registry: remembers extras the server asked back, where rememberRejected keeps its parameters. */
  rememberSendBack?(extras: readonly SentBack[]): void;
}

export const ENV_PROFILE = 'env';

export class ProfileRegistry {
  private readonly profiles = new Map<string, LlmProfile>();
  private revision = 0;
  private readonly listeners = new Set<() => void>();

  /** `profiles`: fixed ones (the env profile); `store`: the saved ones, when the app has a data dir. */
  constructor(
    profiles: LlmProfile[] = [],
    private readonly store: ProfileStore | null = null,
  ) {
    for (const p of profiles) this.profiles.set(p.name, p);
  }

  /**
   * MAESTRO_LLM_BASE_URL / _API_KEY / _MODEL / _CONTEXT_WINDOW / _KIND / _MAX_CONCURRENT_CALLS, when the base URL is set, as the profile "env",
   * and the LlmCall limits _MAX_REPLY_BYTES / _MAX_TOOL_ARGUMENT_BYTES / _MAX_CALL_SECONDS. A kind that is not one of
   * ours is ignored (generic), like a context window that is not a number; a limit out of its range throws, naming the
   * variable (a limit must never be silently dropped).
   */
  static fromEnv(env: NodeJS.ProcessEnv, store: ProfileStore | null = null): ProfileRegistry {
    const baseURL = env.MAESTRO_LLM_BASE_URL;
    if (!baseURL) return new ProfileRegistry([], store);
    const profile: LlmProfile = {
      name: ENV_PROFILE,
      baseURL,
      model: env.MAESTRO_LLM_MODEL ?? 'default',
      apiKey: env.MAESTRO_LLM_API_KEY ?? '',
    };
    const contextWindow = positiveInt(env.MAESTRO_LLM_CONTEXT_WINDOW);
    if (contextWindow !== undefined) profile.contextWindow = contextWindow;
    const maxConcurrentCalls = positiveInt(env.MAESTRO_LLM_MAX_CONCURRENT_CALLS);
    if (maxConcurrentCalls !== undefined) profile.maxConcurrentCalls = maxConcurrentCalls;
    const kind = ProviderKind.safeParse(env.MAESTRO_LLM_KIND?.trim().toLowerCase());
    if (kind.success) profile.kind = kind.data;
    Object.assign(profile, replyLimitsFromEnv(env));
    // MAESTRO_LLM_MEDIA=image,audio: what the model takes besides text; unknown words are ignored.
    const media = (env.MAESTRO_LLM_MEDIA ?? '').split(',').flatMap((m) => MediaKind.safeParse(m.trim()).data ?? []);
    if (media.length > 0) profile.media = [...new Set(media)];
    return new ProfileRegistry([profile], store);
  }

  has(name: string): boolean {
    return this.profiles.has(name) || this.store?.find(name) !== undefined;
  }

  /** Whether the profile comes from the environment (it cannot be edited or deleted in the app). */
  isFixed(name: string): boolean {
    return this.profiles.has(name);
  }

  /** The profile with its key in clear. Throws ProfileKeyError when a saved key cannot be opened. */
  get(name: string): LlmProfile | undefined {
    const learning = {
      rememberRejected: (parameters: readonly OptionalParameter[]) => this.rememberRejected(name, parameters),
      rememberSendBack: (extras: readonly SentBack[]) => this.rememberSendBack(name, extras),
    };
    const fixed = this.profiles.get(name);
    if (fixed) return { ...fixed, ...learning };
    const stored = this.store?.find(name);
    if (!stored || !this.store) return undefined;
    const { apiKey: _sealed, ...rest } = stored;
    return { ...rest, apiKey: this.store.openKey(name), ...learning };
  }

  /** Parameters the server rejected are not sent again: saved in profiles.json, or kept in memory for env. */
  rememberRejected(name: string, parameters: readonly OptionalParameter[]): void {
    this.remember(name, 'rejectedParameters', parameters);
  }

  /** Extras the server asked back are sent from the start: saved like rejected parameters. */
  rememberSendBack(name: string, extras: readonly SentBack[]): void {
    this.remember(name, 'sendBack', extras);
  }

  private remember<K extends keyof StoredLearning>(
    name: string,
    field: K,
    values: Readonly<NonNullable<StoredLearning[K]>>,
  ): void {
    const fixed = this.profiles.get(name);
    const known: readonly unknown[] = (fixed ? fixed[field] : this.store?.find(name)?.[field]) ?? [];
    const added = values.filter((v) => !known.includes(v));
    if (added.length === 0) return;
    const all = [...known, ...added] as StoredLearning[K];
    if (fixed) this.profiles.set(name, { ...fixed, [field]: all });
    else {
      try {
        if (!this.store?.remember(name, { [field]: all })) return;
      } catch {
        return; // profiles.json cannot be written: the client that found it out still acts on it
      }
    }
    this.changed();
  }

  /** The profile a task gets when it names none: the one made default in the app, else env, else the first. */
  get defaultName(): string | null {
    const chosen = this.store?.defaultProfile;
    if (chosen && this.has(chosen)) return chosen;
    if (this.profiles.has(ENV_PROFILE)) return ENV_PROFILE;
    return this.profiles.keys().next().value ?? this.store?.list()[0]?.name ?? null;
  }

  /** Bumped on every change to a profile. */
  get version(): number {
    return this.revision;
  }

  /** Called after every change; returns the disposer. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every profile as outputs show it (no key), and why the saved ones could not be read, if so. */
  list(): { profiles: ProfileView[]; errors: { file: string; message: string }[] } {
    const names = [...this.profiles.keys(), ...(this.store?.list().map((p) => p.name) ?? [])];
    const errors: { file: string; message: string }[] = [];
    const store = this.store;
    if (store?.error) errors.push({ file: store.error.file, message: store.error.message });
    for (const stored of store?.list() ?? []) {
      try {
        store?.openKey(stored.name);
      } catch (error) {
        errors.push({ file: store?.file ?? '', message: (error as Error).message });
      }
    }
    return {
      profiles: names.flatMap((name) => {
        const view = this.view(name);
        return view ? [view] : [];
      }),
      errors,
    };
  }

  /** The profile as outputs show it: whether it has a key and the key's last 4 characters, never the key. */
  view(name: string): ProfileView | undefined {
    const fixed = this.profiles.get(name);
    const stored = fixed ? undefined : this.store?.find(name);
    const base = fixed ?? stored;
    if (!base) return undefined;
    let key = '';
    try {
      key = fixed ? fixed.apiKey : (this.store?.openKey(name) ?? '');
    } catch {
      // Listed with a key but no hint; list() reports why it cannot be opened.
    }
    return {
      name,
      baseURL: base.baseURL,
      model: base.model,
      kind: base.kind ?? DEFAULT_PROVIDER_KIND,
      ...actsAs(base),
      ...(base.contextWindow !== undefined ? { contextWindow: base.contextWindow } : {}),
      ...(base.temperature !== undefined ? { temperature: base.temperature } : {}),
      ...(base.parallelToolCalls !== undefined ? { parallelToolCalls: base.parallelToolCalls } : {}),
      ...(base.media?.length ? { media: base.media } : {}),
      ...(base.rejectedParameters?.length ? { rejectedParameters: base.rejectedParameters } : {}),
      ...(base.sendBack?.length ? { sendBack: base.sendBack } : {}),
      ...(base.maxReplyBytes !== undefined ? { maxReplyBytes: base.maxReplyBytes } : {}),
      ...(base.maxToolArgumentBytes !== undefined ? { maxToolArgumentBytes: base.maxToolArgumentBytes } : {}),
      ...(base.maxCallSeconds !== undefined ? { maxCallSeconds: base.maxCallSeconds } : {}),
      ...(base.maxConcurrentCalls !== undefined ? { maxConcurrentCalls: base.maxConcurrentCalls } : {}),
      ...(base.prices !== undefined ? { prices: base.prices } : {}),
      hasKey: fixed ? fixed.apiKey !== '' : stored?.apiKey != null,
      keyHint: keyHint(key),
      source: fixed ? 'env' : 'saved',
      isDefault: this.defaultName === name,
    };
  }

  /** Saves a profile in the app's store. Throws ConfigFileError when the file cannot be written. */
  save(change: ProfileChange): ProfileView {
    if (!this.store) throw new Error('profiles cannot be saved without a data dir');
    this.store.save(change);
    this.changed();
    return this.view(change.name) as ProfileView;
  }

  /** Deletes a saved profile; false when there is none of that name. */
  delete(name: string): boolean {
    const deleted = this.store?.delete(name) ?? false;
    if (deleted) this.changed();
    return deleted;
  }

  private changed(): void {
    this.revision++;
    for (const listener of [...this.listeners]) listener();
  }
}

/** A generic profile's kind as its base URL names it, when it names one. */
function actsAs(profile: { kind?: ProviderKind; baseURL: string }): { actsAs?: ProviderKind } {
  const acts = effectiveKind(profile);
  return acts === (profile.kind ?? DEFAULT_PROVIDER_KIND) ? {} : { actsAs: acts };
}

/** The last 4 characters of a key long enough that they say little about it; null otherwise. */
export function keyHint(key: string): string | null {
  return key.length >= 8 ? key.slice(-4) : null;
}

/** A positive integer from an env value, or undefined when unset or not one (a typo must not stop the app). */
function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
