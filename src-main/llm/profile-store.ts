// The LLM profiles made in the app: `<dataDir>/profiles.json` (atomic writes, 0600), each API key sealed by a
// SecretBox. A file that cannot be read is reported, never overwritten, and never stops the app.
import path from 'node:path';
import { z } from 'zod';
import { ProfileName } from '../../src-shared/contract';
import { CodedError } from '../../src-shared/errors';
import { brokenFileError, ConfigFileError, readJsonFile, writeJsonFile } from '../workspace/json-file';
import { type SecretBox, SecretBoxError } from './secret-box';

export const PROFILES_FILE = 'profiles.json';
export const SECRET_KEY_FILE = 'secret.key';

const SealedKey = z.object({ box: z.string().min(1), sealed: z.string().min(1) }).strict();

const StoredProfile = z
  .object({
    name: ProfileName,
    baseURL: z.string().min(1),
    model: z.string().min(1),
    contextWindow: z.number().int().positive().optional(),
    temperature: z.number().optional(),
    parallelToolCalls: z.boolean().optional(),
    apiKey: SealedKey.nullable(),
  })
  .strict();
export type StoredProfile = z.infer<typeof StoredProfile>;

const ProfilesFile = z
  .object({ version: z.literal(1), defaultProfile: z.string().nullable(), profiles: z.array(StoredProfile) })
  .strict();
type ProfilesFile = z.infer<typeof ProfilesFile>;

/** What a save changes; `apiKey` absent keeps the stored key, '' removes it. */
export interface ProfileChange {
  name: string;
  baseURL: string;
  model: string;
  apiKey?: string;
  contextWindow?: number;
  temperature?: number;
  parallelToolCalls?: boolean;
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
  private data: ProfilesFile = { version: 1, defaultProfile: null, profiles: [] };
  private broken: ConfigFileError | null = null;

  constructor(
    readonly file: string,
    private readonly box: SecretBox,
  ) {
    this.load();
  }

  /** The store of a data dir: profiles.json beside the DB. */
  static inDataDir(dataDir: string, box: SecretBox): ProfileStore {
    return new ProfileStore(path.join(dataDir, PROFILES_FILE), box);
  }

  /** Why the file could not be read, when it could not. */
  get error(): ConfigFileError | null {
    return this.broken;
  }

  get defaultProfile(): string | null {
    return this.data.defaultProfile;
  }

  list(): readonly StoredProfile[] {
    return this.data.profiles;
  }

  find(name: string): StoredProfile | undefined {
    return this.data.profiles.find((p) => p.name === name);
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
    this.assertWritable();
    const previous = this.find(change.name);
    const apiKey =
      change.apiKey === undefined
        ? (previous?.apiKey ?? null)
        : change.apiKey === ''
          ? null
          : { box: this.box.kind, sealed: this.box.seal(change.apiKey, change.name) };
    const stored: StoredProfile = {
      name: change.name,
      baseURL: change.baseURL,
      model: change.model,
      ...(change.contextWindow !== undefined ? { contextWindow: change.contextWindow } : {}),
      ...(change.temperature !== undefined ? { temperature: change.temperature } : {}),
      ...(change.parallelToolCalls !== undefined ? { parallelToolCalls: change.parallelToolCalls } : {}),
      apiKey,
    };
    const profiles = previous
      ? this.data.profiles.map((p) => (p.name === change.name ? stored : p))
      : [...this.data.profiles, stored];
    this.write({
      version: 1,
      defaultProfile: change.makeDefault ? change.name : this.data.defaultProfile,
      profiles,
    });
    return stored;
  }

  /** Removes a profile; false when there is none of that name. */
  delete(name: string): boolean {
    this.assertWritable();
    if (!this.find(name)) return false;
    this.write({
      version: 1,
      defaultProfile: this.data.defaultProfile === name ? null : this.data.defaultProfile,
      profiles: this.data.profiles.filter((p) => p.name !== name),
    });
    return true;
  }

  private assertWritable(): void {
    if (this.broken) {
      const why = `cannot be read, so it is not overwritten: ${this.broken.message}`;
      throw new ConfigFileError(this.file, why, { form: 'clause' });
    }
  }

  private write(next: ProfilesFile): void {
    try {
      writeJsonFile(this.file, next);
    } catch (error) {
      const why = `cannot be written: ${(error as NodeJS.ErrnoException).code ?? 'error'}`;
      throw new ConfigFileError(this.file, why, { form: 'clause' });
    }
    this.data = next;
  }

  private load(): void {
    const read = readJsonFile(this.file, ProfilesFile);
    if (read.kind === 'absent') return;
    if (read.kind === 'broken') {
      this.broken = brokenFileError(this.file, read, { what: 'profiles file' });
      return;
    }
    const names = read.value.profiles.map((p) => p.name);
    if (new Set(names).size !== names.length) {
      const why = 'is not a valid profiles file: a profile name appears twice';
      this.broken = new ConfigFileError(this.file, why, { form: 'clause', field: 'profiles' });
      return;
    }
    this.data = read.value;
  }
}
