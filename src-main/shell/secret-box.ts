// A SecretBox backed by Electron's safeStorage (the OS keychain), for the API keys of saved LLM profiles. Null when
// the OS offers no real encryption (no keychain, or Linux's hard-coded `basic_text`): the data dir's secret.key is
// used then. Call after `app` is ready.
import { safeStorage } from 'electron';
import { type SecretBox, SecretBoxError } from '../llm/secret-box';

export const SAFE_STORAGE_KIND = 'electron-safe-storage';

export function safeStorageSecretBox(): SecretBox | null {
  if (!safeStorage.isEncryptionAvailable()) return null;
  if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return null;
  return {
    kind: SAFE_STORAGE_KIND,
    where: 'the OS keychain (Electron safeStorage)',
    // The context travels inside the sealed value, so a value copied to another profile does not open there.
    seal: (plain, context) => safeStorage.encryptString(`${context}\n${plain}`).toString('base64'),
    open(sealed, context) {
      let text: string;
      try {
        text = safeStorage.decryptString(Buffer.from(sealed, 'base64'));
      } catch {
        throw new SecretBoxError('the OS keychain cannot open it (another user or machine, or a reset keychain)');
      }
      const prefix = `${context}\n`;
      if (!text.startsWith(prefix)) throw new SecretBoxError('it was sealed for another profile');
      return text.slice(prefix.length);
    },
  };
}
