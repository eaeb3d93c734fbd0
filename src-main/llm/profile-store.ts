// The LLM profiles made in the app: `<dataDir>/profiles.json` (atomic writes, 0600), each API key sealed by a
// SecretBox. A file that cannot be read is reported, never overwritten, and never stops the app.
import path from 'node:path';
import { z } from 'zod';
import { ProfileName } from '../../src-shared/contract';
import {
  MaxConcurrentCalls,
  MediaKind,
  OptionalParameter,
  ProviderKind,
  ReplyLimitFields,
  SentBack,
} from '../../src-shared/contract/profiles';
import { CodedError } from '../../src-shared/errors';
import { ModelPrices } from '../../src-shared/model-prices';
import { ConfigFileError, JsonFileStore } from '../workspace/json-file';
import { type SecretBox, SecretBoxError } from './secret-box';

export const PROFILES_FILE = 'profiles.json';
export const SECRET_KEY_FILE = 'secret.key';

const SealedKey = z.object({ box: z.string().min(1), sealed: z.string().min(1) }).strict();

const StoredProfile = z
  .object({
    name: ProfileName,
    baseURL: z.string().min(1),
    model: z.string().min(1),
    /** Absent in files written before kinds: generic. */
    kind: ProviderKind.optional(),
    contextWindow: z.number().int().positive().optional(),
    temperature: z.number().optional(),
    parallelToolCalls: z.boolean().optional(),
    media: z.array(MediaKind).optional(),
    rejectedParameters: z.array(OptionalParameter).optional(),
    /** Extras the server asked back in a 400 (absent in files written before issue 21: none). */
    sendBack: z.array(SentBack).optional(),
    maxReplyBytes: ReplyLimitFields.maxReplyBytes.optional(),
    maxToolArgumentBytes: ReplyLimitFields.maxToolArgumentBytes.optional(),
    maxCallSeconds: ReplyLimitFields.maxCallSeconds.optional(),
    /** Absent in files written before issue 28: no limit. */
    maxConcurrentCalls: MaxConcurrentCalls.optional(),
    /** Absent in files written before issue 23: the preset's prices, if any. */
    prices: ModelPrices.optional(),
    apiKey: SealedKey.nullable(),
  })
  .strict();
export type StoredProfile = z.infer<typeof StoredProfile>;

const ProfilesFile = z
  .object({ version: z.literal(1), defaultProfile: z.string().nullable(), profiles: z.array(StoredProfile) })
  .strict();
type ProfilesFile = z.infer<typeof ProfilesFile>;

/** What a profile learned from its server's refusals, kept while it points at the same server and model. */
export type StoredLearning = Pick<StoredProfile, 'rejectedParameters' | 'sendBack'>;

/** What a save changes; `apiKey` absent keeps the stored key, '' removes it. */
export interface ProfileChange {
  name: string;
  baseURL: string;
  model: string;
  /** Absent: the kind as saved, generic for a new profile. */
  kind?: ProviderKind;
  apiKey?: string;
  contextWindow?: number;
  temperature?: number;
  parallelToolCalls?: boolean;
  media?: MediaKind[];
  maxReplyBytes?: number;
  maxToolArgumentBytes?: number;
  maxCallSeconds?: number;
  maxConcurrentCalls?: number;
  prices?: ModelPrices;
  makeDefault?: boolean;
}

/** profiles.json cannot be read or written: the one ConfigFileError, by the name its callers catch. */

/** A saved profile's key cannot be opened; the message names the profile and the reason, never the key. */
export class ProfileKeyError extends CodedError {
  readonly code = 'llm_profile_key_unusable';
  constructor(
    readonly profile: string,
    reason: string,
  ) {
    super(`the API key of LLM profile "${profile}" cannot be used: ${reason}; enter the key again in Settings`);
  }
}

export class ProfileStore {
  private readonly json: JsonFileStore<ProfilesFile>;

  constructor(
    readonly file: string,
    private readonly box: SecretBox,
  ) {
    this.json = new JsonFileStore(file, ProfilesFile, EMPTY, 'profiles file', uniqueNames(file));
  }

  /** The store of a data dir: profiles.json beside the DB. */
  static inDataDir(dataDir: string, box: SecretBox): ProfileStore {
    return new ProfileStore(path.join(dataDir, PROFILES_FILE), box);
  }

  /** Why the file could not be read, when it could not. */
  get error(): ConfigFileError | null {
    return this.json.error;
  }

  get defaultProfile(): string | null {
    return this.json.data.defaultProfile;
  }

  list(): readonly StoredProfile[] {
    return this.json.data.profiles;
  }

  find(name: string): StoredProfile | undefined {
    return this.json.data.profiles.find((p) => p.name === name);
  }

  /** The profile's API key in clear ('' when it has none). Throws ProfileKeyError when it cannot be opened. */
  openKey(name: string): string {
    const stored = this.find(name);
    if (!stored?.apiKey) return '';
    if (stored.apiKey.box !== this.box.kind) {
      throw new ProfileKeyError(name, `it was sealed by "${stored.apiKey.box}", and this app uses ${this.box.where}`);
    }
    try {
      return this.box.open(stored.apiKey.sealed, name);
    } catch (error) {
      if (error instanceof SecretBoxError) throw new ProfileKeyError(name, error.message);
      throw new ProfileKeyError(name, `${this.box.where} refused to open it`);
    }
  }

  /** Adds or replaces a profile; returns it as stored. */
  save(change: ProfileChange): StoredProfile {
    this.json.assertWritable();
    const previous = this.find(change.name);
    const apiKey =
      change.apiKey === undefined
        ? (previous?.apiKey ?? null)
        : change.apiKey === ''
          ? null
          : { box: this.box.kind, sealed: this.box.seal(change.apiKey, change.name) };
    const kind = change.kind ?? previous?.kind;
    // What a server rejected or asked for stays known while the profile points at the same server and model.
    const sameServer =
      previous?.baseURL === change.baseURL && previous.model === change.model && previous.kind === kind;
    const rejected = sameServer ? previous.rejectedParameters : undefined;
    const sendBack = sameServer ? previous.sendBack : undefined;
    const stored: StoredProfile = {
      name: change.name,
      baseURL: change.baseURL,
      model: change.model,
      ...(kind !== undefined ? { kind } : {}),
      ...(change.contextWindow !== undefined ? { contextWindow: change.contextWindow } : {}),
      ...(change.temperature !== undefined ? { temperature: change.temperature } : {}),
      ...(change.parallelToolCalls !== undefined ? { parallelToolCalls: change.parallelToolCalls } : {}),
      ...(change.media?.length ? { media: change.media } : {}),
      ...(rejected?.length ? { rejectedParameters: rejected } : {}),
      ...(sendBack?.length ? { sendBack } : {}),
      ...(change.maxReplyBytes !== undefined ? { maxReplyBytes: change.maxReplyBytes } : {}),
      ...(change.maxToolArgumentBytes !== undefined ? { maxToolArgumentBytes: change.maxToolArgumentBytes } : {}),
      ...(change.maxCallSeconds !== undefined ? { maxCallSeconds: change.maxCallSeconds } : {}),
      ...(change.maxConcurrentCalls !== undefined ? { maxConcurrentCalls: change.maxConcurrentCalls } : {}),
      ...(change.prices !== undefined ? { prices: change.prices } : {}),
      apiKey,
    };
    this.replace(stored, change.makeDefault ? change.name : this.json.data.defaultProfile);
    return stored;
  }

  /** Records what the profile's server taught it (the whole list of each field given); false without such profile. */
  remember(name: string, learned: StoredLearning): boolean {
    const previous = this.find(name);
    if (!previous || this.json.error) return false;
    this.replace({ ...previous, ...learned }, this.json.data.defaultProfile);
    return true;
  }

  private replace(stored: StoredProfile, defaultProfile: string | null): void {
    const known = this.find(stored.name) !== undefined;
    const profiles = known
      ? this.json.data.profiles.map((p) => (p.name === stored.name ? stored : p))
      : [...this.json.data.profiles, stored];
    this.json.write({ version: 1, defaultProfile, profiles });
  }

  /** Removes a profile; false when there is none of that name. */
  delete(name: string): boolean {
    this.json.assertWritable();
    if (!this.find(name)) return false;
    this.json.write({
      version: 1,
      defaultProfile: this.json.data.defaultProfile === name ? null : this.json.data.defaultProfile,
      profiles: this.json.data.profiles.filter((p) => p.name !== name),
    });
    return true;
  }
}

const EMPTY: ProfilesFile = { version: 1, defaultProfile: null, profiles: [] };

const uniqueNames = (file: string) => (value: ProfilesFile) => {
  const names = value.profiles.map((p) => p.name);
  if (new Set(names).size === names.length) return null;
  const why = 'is not a valid profiles file: a profile name appears twice';
  return new ConfigFileError(file, why, { form: 'clause', field: 'profiles' });
};
