// The data key of the desktop's secrets, wrapped by Electron's safeStorage (the OS keychain): kept sealed in
// `<dataDir>/secret.key.keychain` (0600, made on first use) and opened here, in main, where safeStorage lives; the
// core in its utility process gets the key over its port and seals the profiles' API keys and the MCP tokens with it
// (llm/secret-box.ts keyedSecretBox). Null when the OS offers no real encryption (no keychain, or Linux's hard-coded
// `basic_text`): the core uses the data dir's secret.key then. Call after `app` is ready.
import fs from 'node:fs';
import path from 'node:path';
import { safeStorage } from 'electron';
import { newDataKey, SecretBoxError } from '../llm/secret-box';
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
    throw new SecretBoxError(`the OS keychain cannot open ${file} (another user or machine, or a reset keychain)`);
  }
}
