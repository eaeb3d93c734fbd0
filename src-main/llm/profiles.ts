// LLM profiles a job can name. Issue 3 adds profiles made in the UI; here: the default profile from the environment.
export interface LlmProfile {
  name: string;
  baseURL: string;
  model: string;
  /** Never logged, never stored in clear, never sent anywhere but the profile's base URL. */
  apiKey: string;
  /** The model's context window in tokens; when set, a request estimated above it is refused before sending. */
  contextWindow?: number;
  temperature?: number;
  /** Sent as `parallel_tool_calls` when the request has tools; omitted when unset (some backends reject it). */
  parallelToolCalls?: boolean;
  /** Extra HTTP headers sent with every request of this profile. */
  extraHeaders?: Record<string, string>;
}

export const ENV_PROFILE = 'env';

export class ProfileRegistry {
  private readonly profiles = new Map<string, LlmProfile>();

  constructor(profiles: LlmProfile[] = []) {
    for (const p of profiles) this.profiles.set(p.name, p);
  }

  /** MAESTRO_LLM_BASE_URL / _API_KEY / _MODEL / _CONTEXT_WINDOW, when the base URL is set, as the profile "env". */
  static fromEnv(env: NodeJS.ProcessEnv): ProfileRegistry {
    const baseURL = env.MAESTRO_LLM_BASE_URL;
    if (!baseURL) return new ProfileRegistry();
    const profile: LlmProfile = {
      name: ENV_PROFILE,
      baseURL,
      model: env.MAESTRO_LLM_MODEL ?? 'default',
      apiKey: env.MAESTRO_LLM_API_KEY ?? '',
    };
    const contextWindow = positiveInt(env.MAESTRO_LLM_CONTEXT_WINDOW);
    if (contextWindow !== undefined) profile.contextWindow = contextWindow;
    return new ProfileRegistry([profile]);
  }

  has(name: string): boolean {
    return this.profiles.has(name);
  }

  get(name: string): LlmProfile | undefined {
    return this.profiles.get(name);
  }

  /** The profile a task gets when it names none. */
  get defaultName(): string | null {
    return this.profiles.has(ENV_PROFILE) ? ENV_PROFILE : (this.profiles.keys().next().value ?? null);
  }
}

/** A positive integer from an env value, or undefined when unset or not one (a typo must not stop the app). */
function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
