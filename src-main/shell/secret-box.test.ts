// The desktop's secrets with the core in its own process: main opens a data key the OS keychain wraps and hands it to
// the core, and values an earlier version sealed with the keychain directly are sealed again under it, so they keep
// opening in the core (which has no safeStorage). Runs under the stand-in keychain (test-support/electron-stand-in.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { safeStorage, standInConfig } from '../../test-support/electron-stand-in';
import { PROFILES_FILE, ProfileStore } from '../llm/profile-store';
import { keyedSecretBox, type SecretBox, SecretBoxError } from '../llm/secret-box';
import { KEYCHAIN_KEY_FILE, keychainDataKey, LEGACY_SAFE_STORAGE_KIND, resealKeychainValues } from './secret-box';

vi.mock('electron', () => import('../../test-support/electron-stand-in'));

const base = { name: 'work', baseURL: 'http://127.0.0.1:1/v1', model: 'm' };
const API_KEY = 'sk-legacy-0123456789abcdef';

/** How an earlier version sealed: safeStorage itself, the context inside the sealed text. */
const legacyBox: SecretBox = {
  kind: LEGACY_SAFE_STORAGE_KIND,
  where: 'the OS keychain',
  seal: (plain, context) => safeStorage.encryptString(`${context}\n${plain}`).toString('base64'),
  open: () => {
    throw new Error('not used');
  },
};

const dirs: string[] = [];
afterEach(() => {
  Object.assign(standInConfig, { keychain: false, keychainId: 'this-machine' });
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-keychain-'));
  dirs.push(dir);
  return dir;
};

describe('the keychain-wrapped data key', () => {
  it('is made once, kept wrapped (0600, never in clear), and opened to the same key', () => {
    standInConfig.keychain = true;
    const dir = tempDir();
    const key = keychainDataKey(dir);
    expect(key?.length).toBe(32);
    const file = path.join(dir, KEYCHAIN_KEY_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(file, 'utf8');
    for (const form of [key?.toString('base64'), key?.toString('hex')]) expect(text).not.toContain(form);
    expect(keychainDataKey(dir)?.equals(key as Buffer)).toBe(true);
  });

  it('without a keychain there is none, and nothing is written (the core uses secret.key)', () => {
    const dir = tempDir();
    expect(keychainDataKey(dir)).toBeNull();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("another machine's keychain cannot open it: a clear error, and the wrapped key is left as it was", () => {
    standInConfig.keychain = true;
    const dir = tempDir();
    keychainDataKey(dir);
    const before = fs.readFileSync(path.join(dir, KEYCHAIN_KEY_FILE));
    standInConfig.keychainId = 'another-machine';
    expect(() => keychainDataKey(dir)).toThrow(SecretBoxError);
    expect(() => keychainDataKey(dir)).toThrow(/cannot open .*secret\.key\.keychain/);
    expect(fs.readFileSync(path.join(dir, KEYCHAIN_KEY_FILE))).toEqual(before);
  });
});

describe('values sealed by the keychain directly, before the core had its own process', () => {
  it('are sealed again under the data key and open in the core; one this keychain cannot open is left alone', () => {
    standInConfig.keychain = true;
    const dir = tempDir();
    ProfileStore.inDataDir(dir, legacyBox).save({ ...base, apiKey: API_KEY });
    // Sealed by another machine's keychain: not ours to open, so not ours to change.
    standInConfig.keychainId = 'another-machine';
    ProfileStore.inDataDir(dir, legacyBox).save({ ...base, name: 'foreign', apiKey: 'sk-foreign' });
    standInConfig.keychainId = 'this-machine';
    const key = keychainDataKey(dir) as Buffer;

    expect(resealKeychainValues(dir, key)).toBe(1);
    const text = fs.readFileSync(path.join(dir, PROFILES_FILE), 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(fs.statSync(path.join(dir, PROFILES_FILE)).mode & 0o777).toBe(0o600);
    const inCore = ProfileStore.inDataDir(dir, keyedSecretBox(key, 'the OS keychain'));
    expect(inCore.openKey('work')).toBe(API_KEY);
    expect(() => inCore.openKey('foreign')).toThrow(/sealed by "electron-safe-storage"/);
    // Done once: a second start finds nothing left to seal again.
    expect(resealKeychainValues(dir, key)).toBe(0);
  });
});
