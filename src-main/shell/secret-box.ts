// The data key of the desktop's secrets, wrapped by Electron's safeStorage (the OS keychain): kept sealed in
// `<dataDir>/secret.key.keychain` (0600, made on first use) and opened here, in main, where safeStorage lives; the
// core in its utility process gets the key over its port and seals the profiles' API keys and the MCP tokens with it
// (llm/secret-box.ts keyedSecretBox). Null when the OS offers no real encryption (no keychain, or Linux's hard-coded
// `basic_text`): the core uses the data dir's secret.key then. Values an earlier version sealed with safeStorage
// itself are sealed again under the data key once (resealKeychainValues), so they keep opening. Call after `app` is
// ready.
import fs from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import { AGENT_TOKENS_FILE } from '../app/data-dir';
import { PROFILES_FILE } from '../llm/profile-store';
import { keyedSecretBox, newDataKey, SecretBoxError } from '../llm/secret-box';
import { MCP_TOKENS_FILE } from '../mcp/token-store';
import { writeFileAtomic } from '../workspace/atomic-write';

export const KEYCHAIN_KEY_FILE = 'secret.key.keychain';

export function keychainDataKey(dataDir: string): Buffer | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return null;
  const file = path.join(dataDir, KEYCHAIN_KEY_FILE);
  let wrapped: string | undefined;
  try {
    wrapped = fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (wrapped === undefined) {
    const key = newDataKey();
    writeFileAtomic(file, `${safeStorage.encryptString(key.toString('base64')).toString('base64')}\n`, 0o600);
    return key;
  }
  try {
    return Buffer.from(safeStorage.decryptString(Buffer.from(wrapped, 'base64')), 'base64');
  } catch {
    throw new SecretBoxError(`${WHERE} cannot open ${file} (another user or machine, or a reset keychain)`);
  }
}

/** What an earlier version stored as the box of a value sealed by safeStorage directly ("context\nplain"). */
export const LEGACY_SAFE_STORAGE_KIND = 'electron-safe-storage';
const SEALED_FILES = [PROFILES_FILE, MCP_TOKENS_FILE, AGENT_TOKENS_FILE];
const WHERE = 'the OS keychain (Electron safeStorage)';

/**
 * Seals again, under the data key, every `{ box: 'electron-safe-storage', sealed }` of the data dir's sealed files
 * (the core cannot reach safeStorage); a value the keychain cannot open is left as it is, for the core to report.
 * Returns how many were sealed again.
 */
export function resealKeychainValues(dataDir: string, key: Buffer): number {
  const box = keyedSecretBox(key, WHERE);
  let count = 0;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (record.box === LEGACY_SAFE_STORAGE_KIND && typeof record.sealed === 'string') {
      let text: string;
      try {
        text = safeStorage.decryptString(Buffer.from(record.sealed, 'base64'));
      } catch {
        return value;
      }
      const cut = text.indexOf('\n');
      if (cut < 0) return value;
      count++;
      return { ...record, box: box.kind, sealed: box.seal(text.slice(cut + 1), text.slice(0, cut)) };
    }
    return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, walk(v)]));
  };
  for (const name of SEALED_FILES) {
    const file = path.join(dataDir, name);
    let json: unknown;
    try {
      json = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      continue; // absent or broken: the core says what is wrong with it
    }
    const before = count;
    const resealed = walk(json);
    if (count > before) writeFileAtomic(file, `${JSON.stringify(resealed, null, 2)}\n`, 0o600);
  }
  return count;
}
