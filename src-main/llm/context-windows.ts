// The context windows of the profiles' servers, read from their model lists (context-window.ts) and kept: what the
// context gauge beside the composer is measured against, where the server says it.
import { checkProfile, type ProfileCheck } from './profile-check';
import type { ProfileRegistry } from './profiles';

/** How long a list that could not be read is not asked again, and how long one that could is kept. */
const FAILED_TTL_MS = 60_000;
const LISTED_TTL_MS = 60 * 60_000;

interface Listed {
  version: number;
  until: number;
  windows: Promise<Record<string, number>>;
}

/**
 * The context windows of the profiles' servers, each list asked once and kept while the profile is unchanged (its
 * registry's version) for an hour, a failed one for a minute: a usage reload after every AgentTurn costs no request.
 */
export class ContextWindows {
  private readonly lists = new Map<string, Listed>();

  constructor(
    private readonly profiles: ProfileRegistry,
    private readonly list: (profile: NonNullable<ReturnType<ProfileRegistry['get']>>) => Promise<ProfileCheck> = (p) =>
      checkProfile(p),
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `model`'s window as served by profile `name`: the server's list where it says, else the profile's own field
   * when it is for that model; undefined when neither says.
   */
  async of(name: string, model: string): Promise<{ contextWindow: number; source: 'server' | 'profile' } | undefined> {
    const listed = (await this.windows(name))[model];
    if (listed !== undefined) return { contextWindow: listed, source: 'server' };
    const view = this.profiles.view(name);
    if (view?.contextWindow !== undefined && view.model === model) {
      return { contextWindow: view.contextWindow, source: 'profile' };
    }
    return undefined;
  }

  private windows(name: string): Promise<Record<string, number>> {
    const version = this.profiles.version;
    const cached = this.lists.get(name);
    if (cached && cached.version === version && cached.until > this.now()) return cached.windows;
    let profile: ReturnType<ProfileRegistry['get']>;
    try {
      profile = this.profiles.get(name);
    } catch {
      profile = undefined; // a key that cannot be opened: no list, the profile's own field still counts
    }
    const entry: Listed = { version, until: this.now() + FAILED_TTL_MS, windows: Promise.resolve({}) };
    if (profile) {
      entry.windows = this.list(profile).then(
        (check) => {
          if (check.ok) entry.until = this.now() + LISTED_TTL_MS;
          return check.contextWindows ?? {};
        },
        () => ({}),
      );
    }
    this.lists.set(name, entry);
    return entry.windows;
  }
}
