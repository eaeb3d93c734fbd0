// Sealing API keys at rest: the SecretBox interface, and its default, AES-256-GCM with a random per-install key kept
// in `<dataDir>/secret.key` (0600, made on first use). Electron passes an OS-keychain box instead (shell/secret-box.ts).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { CodedError } from '../../src-shared/errors';
import { writeFileAtomic } from '../workspace/atomic-write';

export interface SecretBox {
  /** Stored beside each sealed value, so a value sealed by another box is recognized instead of mis-decrypted. */
  readonly kind: string;
  /** Where the box's own secret lives, for error messages. */
  readonly where: string;
  /** `context` binds the sealed value to its owner (a profile name): it does not open under another context. */
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

/** A sealed value that cannot be opened; the message says why and never holds the secret. */
export class SecretBoxError extends CodedError {
  readonly code = 'secret_unopenable';
  constructor(message: string) {
    super(message);
  }
}

export const FILE_BOX_KIND = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export function fileSecretBox(keyFile: string): SecretBox {
  const readKey = (): Buffer | undefined => {
    let text: string;
    try {
      text = fs.readFileSync(keyFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SecretBoxError(`${keyFile} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    const key = Buffer.from(text.trim(), 'base64');
    if (key.length !== KEY_BYTES || key.toString('base64') !== text.trim()) {
      throw new SecretBoxError(`${keyFile} is not a valid key (expected ${KEY_BYTES} bytes in base64)`);
    }
    return key;
  };
  const keyForSealing = (): Buffer => {
    const existing = readKey();
    if (existing) return existing;
    const key = randomBytes(KEY_BYTES);
    writeFileAtomic(keyFile, `${key.toString('base64')}\n`, 0o600);
    fs.chmodSync(keyFile, 0o600);
    return key;
  };

  return aesBox(FILE_BOX_KIND, keyFile, keyForSealing, () => {
    const key = readKey();
    if (!key) throw new SecretBoxError(`${keyFile} is missing (the key was sealed with it)`);
    return key;
  });
}

/**
 * The desktop's box: AES-256-GCM under a data key that the OS keychain wraps. Main opens the wrapped key (safeStorage
 * exists in the main process only) and hands it to the core in its own process, which seals and opens synchronously.
 */
export const KEYCHAIN_KEY_KIND = 'aes-256-gcm+os-keychain';

export function keyedSecretBox(key: Buffer, where: string): SecretBox {
  if (key.length !== KEY_BYTES) throw new SecretBoxError(`the key from ${where} is not ${KEY_BYTES} bytes`);
  return aesBox(
    KEYCHAIN_KEY_KIND,
    where,
    () => key,
    () => key,
  );
}

/** A fresh data key, for the keychain to wrap. */
export const newDataKey = (): Buffer => randomBytes(KEY_BYTES);

function aesBox(kind: string, where: string, keyForSealing: () => Buffer, keyForOpening: () => Buffer): SecretBox {
  return {
    kind,
    where,
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyForSealing(), iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    open(sealed, context) {
      const key = keyForOpening();
      const raw = Buffer.from(sealed, 'base64');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SecretBoxError('the sealed value is truncated');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretBoxError(`${where} does not open it (another key, or the value was altered)`);
      }
    },
  };
}
