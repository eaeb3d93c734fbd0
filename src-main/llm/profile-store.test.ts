// Saved LLM profiles at rest: keys sealed (never in clear in profiles.json), 0600 files, atomic writes, and clear
// errors for a missing or wrong secret.key and for a broken profiles.json.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../test-support/temp-maestro';
import { ConfigFileError } from '../workspace/json-file';
import { ProfileKeyError, ProfileStore, SECRET_KEY_FILE } from './profile-store';
import { ENV_PROFILE, ProfileRegistry } from './profiles';
import { FILE_BOX_KIND, fileSecretBox, type SecretBox } from './secret-box';

const KEY = 'sk-live-0123456789abcdefXYZW';
const base = { name: 'local', baseURL: 'http://127.0.0.1:1/v1', model: 'm' };

function storeIn(dir = tempDir()) {
  const box = fileSecretBox(path.join(dir, SECRET_KEY_FILE));
  return { dir, box, store: ProfileStore.inDataDir(dir, box), file: path.join(dir, 'profiles.json') };
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ProfileStore', () => {
  it('P10.11 seals the key: no form of its bytes is in profiles.json, and it opens again after a restart', () => {
    const { dir, store, file } = storeIn();
    store.save({ ...base, apiKey: KEY, temperature: 0.2 });
    const text = fs.readFileSync(file, 'utf8');
    for (const form of [KEY, Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('hex'), KEY.slice(8)]) {
      expect(text).not.toContain(form);
    }
    expect(JSON.parse(text).profiles[0]).toMatchObject({ ...base, temperature: 0.2, apiKey: { box: FILE_BOX_KIND } });
    const again = storeIn(dir).store;
    expect(again.openKey('local')).toBe(KEY);
    expect(fs.readFileSync(path.join(dir, SECRET_KEY_FILE), 'utf8')).not.toContain(KEY);
  });

  it('writes profiles.json and secret.key with mode 0600, and secret.key only when a key is sealed', () => {
    const { dir, store, file } = storeIn();
    store.save(base);
    expect(mode(file)).toBe(0o600);
    expect(fs.existsSync(path.join(dir, SECRET_KEY_FILE))).toBe(false);
    store.save({ ...base, apiKey: KEY });
    expect(mode(path.join(dir, SECRET_KEY_FILE))).toBe(0o600);
    fs.chmodSync(file, 0o644);
    store.save({ ...base, model: 'other' });
    expect(mode(file)).toBe(0o600);
  });

  it('keeps the stored key when apiKey is absent, removes it when empty, and replaces it when given', () => {
    const { store } = storeIn();
    store.save({ ...base, apiKey: KEY });
    store.save({ ...base, model: 'm2' });
    expect(store.openKey('local')).toBe(KEY);
    store.save({ ...base, apiKey: 'sk-another-key-0000' });
    expect(store.openKey('local')).toBe('sk-another-key-0000');
    store.save({ ...base, apiKey: '' });
    expect(store.find('local')?.apiKey).toBeNull();
    expect(store.openKey('local')).toBe('');
  });

  it('a missing secret.key → a clear error naming the profile and the file; it is not silently re-made', () => {
    const { dir, store } = storeIn();
    store.save({ ...base, apiKey: KEY });
    const keyFile = path.join(dir, SECRET_KEY_FILE);
    fs.rmSync(keyFile);
    const reopened = storeIn(dir).store;
    expect(() => reopened.openKey('local')).toThrow(ProfileKeyError);
    expect(() => reopened.openKey('local')).toThrow(`"local"`);
    expect(() => reopened.openKey('local')).toThrow(`${keyFile} is missing`);
    expect(fs.existsSync(keyFile)).toBe(false);
  });

  it('a wrong or malformed secret.key → a clear error, never the key', () => {
    const { dir, store } = storeIn();
    store.save({ ...base, apiKey: KEY });
    const keyFile = path.join(dir, SECRET_KEY_FILE);
    fs.writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`);
    const message = (() => {
      try {
        storeIn(dir).store.openKey('local');
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain(`${keyFile} does not open it`);
    expect(message).not.toContain(KEY);
    fs.writeFileSync(keyFile, 'not a key');
    expect(() => storeIn(dir).store.openKey('local')).toThrow(`${keyFile} is not a valid key`);
  });

  it('a sealed key bound to one profile does not open as another, nor under another box', () => {
    const { dir, store, file } = storeIn();
    store.save({ ...base, apiKey: KEY });
    const json = JSON.parse(fs.readFileSync(file, 'utf8'));
    json.profiles.push({ ...json.profiles[0], name: 'thief' });
    fs.writeFileSync(file, JSON.stringify(json));
    expect(() => storeIn(dir).store.openKey('thief')).toThrow(ProfileKeyError);
    const keychain: SecretBox = { kind: 'os-keychain', where: 'the keychain', seal: (p) => p, open: (s) => s };
    const other = ProfileStore.inDataDir(dir, keychain);
    expect(() => other.openKey('local')).toThrow(/sealed by "aes-256-gcm", and this app uses the keychain/);
  });

  it('a broken profiles.json → an error naming the file; nothing is overwritten', () => {
    for (const content of ['{ not json', '{"version":1,"defaultProfile":null,"profiles":[{"name":"x"}]}', '[]']) {
      const { dir, file } = storeIn();
      fs.writeFileSync(file, content);
      const { store } = storeIn(dir);
      expect(store.error).toBeInstanceOf(ConfigFileError);
      expect(store.error?.message).toContain(file);
      expect(store.list()).toEqual([]);
      expect(() => store.save(base)).toThrow(ConfigFileError);
      expect(() => store.delete('x')).toThrow(file);
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
    }
  });

  it('writes atomically: a failed rename leaves the old file whole, no temp file, and the old state in memory', () => {
    const { dir, store, file } = storeIn();
    store.save({ ...base, apiKey: KEY });
    const before = fs.readFileSync(file, 'utf8');
    vi.spyOn(fs, 'renameSync').mockImplementation(() => {
      throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    });
    expect(() => store.save({ ...base, name: 'second' })).toThrow(/cannot be written: ENOSPC/);
    vi.restoreAllMocks();
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(store.find('second')).toBeUndefined();
  });
});

describe('ProfileRegistry over saved profiles', () => {
  const env = { MAESTRO_LLM_BASE_URL: 'http://127.0.0.1:2/v1', MAESTRO_LLM_API_KEY: 'sk-env-key-1234' };

  it('lists env and saved profiles with hasKey and the last 4 characters only; get() opens the key', () => {
    const { store } = storeIn();
    const r = ProfileRegistry.fromEnv(env, store);
    r.save({ ...base, apiKey: KEY, contextWindow: 8192 });
    r.save({ ...base, name: 'keyless' });
    const { profiles, errors } = r.list();
    expect(errors).toEqual([]);
    expect(profiles).toEqual([
      expect.objectContaining({ name: ENV_PROFILE, source: 'env', hasKey: true, keyHint: '1234', isDefault: true }),
      {
        ...base,
        kind: 'generic',
        contextWindow: 8192,
        hasKey: true,
        keyHint: 'XYZW',
        source: 'saved',
        isDefault: false,
      },
      { ...base, name: 'keyless', kind: 'generic', hasKey: false, keyHint: null, source: 'saved', isDefault: false },
    ]);
    expect(JSON.stringify(profiles)).not.toContain(KEY);
    expect(r.get('local')?.apiKey).toBe(KEY);
  });

  it('the default: made in the app, else env, else the first saved; deleting it falls back', () => {
    const { store } = storeIn();
    const r = ProfileRegistry.fromEnv({}, store);
    expect(r.defaultName).toBeNull();
    r.save(base);
    expect(r.defaultName).toBe('local');
    const withEnv = ProfileRegistry.fromEnv(env, store);
    expect(withEnv.defaultName).toBe(ENV_PROFILE);
    withEnv.save({ ...base, name: 'chosen', makeDefault: true });
    expect(withEnv.defaultName).toBe('chosen');
    expect(withEnv.view('chosen')?.isDefault).toBe(true);
    withEnv.delete('chosen');
    expect(withEnv.defaultName).toBe(ENV_PROFILE);
  });

  it('bumps version and tells listeners on save and delete, not on a delete of nothing', () => {
    const r = ProfileRegistry.fromEnv({}, storeIn().store);
    const seen: number[] = [];
    const off = r.onChange(() => seen.push(r.version));
    r.save(base);
    r.save({ ...base, model: 'm2' });
    expect(r.delete('nope')).toBe(false);
    expect(r.delete('local')).toBe(true);
    off();
    r.save(base);
    expect(seen).toEqual([1, 2, 3]);
    expect(r.version).toBe(4);
  });

  it('a key that cannot be opened: listed without a hint, reported in errors, get() throws the reason', () => {
    const { dir, store } = storeIn();
    store.save({ ...base, apiKey: KEY });
    fs.rmSync(path.join(dir, SECRET_KEY_FILE));
    const r = ProfileRegistry.fromEnv({}, storeIn(dir).store);
    const { profiles, errors } = r.list();
    expect(profiles[0]).toMatchObject({ name: 'local', hasKey: true, keyHint: null });
    expect(errors).toEqual([{ file: store.file, message: expect.stringContaining('secret.key is missing') }]);
    expect(() => r.get('local')).toThrow(ProfileKeyError);
  });

  it('a profiles.json written before kinds (no kind) still loads: its profiles are generic, and keep working', () => {
    const { dir, box, file } = storeIn();
    const sealed = box.seal(KEY, 'old');
    const old = { name: 'old', baseURL: 'http://127.0.0.1:1/v1', model: 'm', apiKey: { box: box.kind, sealed } };
    fs.writeFileSync(file, JSON.stringify({ version: 1, defaultProfile: 'old', profiles: [old] }));
    const r = ProfileRegistry.fromEnv({}, storeIn(dir).store);
    expect(r.list().errors).toEqual([]);
    expect(r.view('old')).toMatchObject({ name: 'old', kind: 'generic', hasKey: true, isDefault: true });
    expect(r.get('old')).toMatchObject({ apiKey: KEY, model: 'm' });
    expect(r.get('old')?.kind).toBeUndefined();
  });

  it('saves the kind; a save without one keeps the saved kind', () => {
    const { dir, store, file } = storeIn();
    const r = ProfileRegistry.fromEnv({}, store);
    r.save({ ...base, kind: 'mistral' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).profiles[0].kind).toBe('mistral');
    r.save({ ...base, model: 'm2' });
    expect(ProfileRegistry.fromEnv({}, storeIn(dir).store).view('local')?.kind).toBe('mistral');
  });

  it('a parameter the server rejected is remembered in profiles.json, and forgotten when the server changes', () => {
    const { dir, store, file } = storeIn();
    const r = ProfileRegistry.fromEnv({}, store);
    r.save({ ...base, kind: 'generic' });
    const seen: number[] = [];
    r.onChange(() => seen.push(r.version));
    r.get('local')?.rememberRejected?.(['stream_options']);
    r.rememberRejected('local', ['stream_options']);
    expect(seen).toHaveLength(1);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).profiles[0].rejectedParameters).toEqual(['stream_options']);
    const again = ProfileRegistry.fromEnv({}, storeIn(dir).store);
    expect(again.get('local')?.rejectedParameters).toEqual(['stream_options']);
    expect(again.view('local')?.rejectedParameters).toEqual(['stream_options']);
    again.save({ ...base, temperature: 0.5 });
    expect(again.get('local')?.rejectedParameters).toEqual(['stream_options']);
    again.save({ ...base, baseURL: 'http://127.0.0.1:2/v1' });
    expect(again.get('local')?.rejectedParameters).toBeUndefined();
  });

  it('the env profile remembers a rejected parameter in memory; profiles.json is not touched', () => {
    const { store, file } = storeIn();
    const r = ProfileRegistry.fromEnv(env, store);
    r.get(ENV_PROFILE)?.rememberRejected?.(['parallel_tool_calls']);
    expect(r.get(ENV_PROFILE)?.rejectedParameters).toEqual(['parallel_tool_calls']);
    expect(r.version).toBe(1);
    expect(fs.existsSync(file)).toBe(false);
  });
  it('an extra the server asked back is remembered beside rejected parameters, and forgotten when the server changes', () => {
    const { dir, store, file } = storeIn();
    const r = ProfileRegistry.fromEnv({}, store);
    r.save({ ...base, kind: 'generic' });
    r.rememberRejected('local', ['stream_options']);
    r.get('local')?.rememberSendBack?.(['extra_content']);
    r.rememberSendBack('local', ['extra_content']);
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')).profiles[0];
    expect(saved).toMatchObject({ rejectedParameters: ['stream_options'], sendBack: ['extra_content'] });
    const again = ProfileRegistry.fromEnv({}, storeIn(dir).store);
    expect(again.get('local')?.sendBack).toEqual(['extra_content']);
    expect(again.view('local')?.sendBack).toEqual(['extra_content']);
    again.save({ ...base, temperature: 0.5 });
    expect(again.get('local')?.sendBack).toEqual(['extra_content']);
    again.save({ ...base, model: 'other' });
    expect(again.get('local')?.sendBack).toBeUndefined();
  });

  it('the env profile remembers an extra in memory; profiles.json is not touched', () => {
    const { store, file } = storeIn();
    const r = ProfileRegistry.fromEnv(env, store);
    r.get(ENV_PROFILE)?.rememberSendBack?.(['reasoning_content_on_tool_turns']);
    expect(r.get(ENV_PROFILE)?.sendBack).toEqual(['reasoning_content_on_tool_turns']);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a generic profile shows the kind its base URL names; a picked kind or an unknown host shows none', () => {
    const r = ProfileRegistry.fromEnv({}, storeIn().store);
    r.save({ ...base, name: 'ds', kind: 'generic', baseURL: 'https://api.deepseek.com' });
    r.save({ ...base, name: 'picked', kind: 'openai', baseURL: 'https://api.deepseek.com' });
    r.save({ ...base, name: 'local', kind: 'generic' });
    expect(r.view('ds')).toMatchObject({ kind: 'generic', actsAs: 'deepseek' });
    expect(r.view('picked')?.actsAs).toBeUndefined();
    expect(r.view('local')?.actsAs).toBeUndefined();
  });
});
