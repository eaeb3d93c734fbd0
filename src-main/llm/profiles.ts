// LLM profiles a job can name. Issue 3 adds profiles made in the UI; here: the default profile from the environment.
export interface LlmProfile {
  name: string;
  baseURL: string;
  model: string;
  /** Never logged, never stored in clear, never sent anywhere but the profile's base URL. */
  apiKey: string;
}

export const ENV_PROFILE = 'env';

export class ProfileRegistry {
  private readonly profiles = new Map<string, LlmProfile>();

  constructor(profiles: LlmProfile[] = []) {
    for (const p of profiles) this.profiles.set(p.name, p);
  }

  /** MAESTRO_LLM_BASE_URL / _API_KEY / _MODEL, when set, as the profile named "env". */
  static fromEnv(env: NodeJS.ProcessEnv): ProfileRegistry {
    const baseURL = env.MAESTRO_LLM_BASE_URL;
    if (!baseURL) return new ProfileRegistry();
    return new ProfileRegistry([
      { name: ENV_PROFILE, baseURL, model: env.MAESTRO_LLM_MODEL ?? 'default', apiKey: env.MAESTRO_LLM_API_KEY ?? '' },
    ]);
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
