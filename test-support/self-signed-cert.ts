// Test support: a real self-signed certificate and its key, made by the `openssl` CLI in a temp dir, and the SPKI pin
// Chromium takes (--ignore-certificate-errors-spki-list) to trust exactly that certificate and no other.
import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SelfSignedCert {
  dir: string;
  certFile: string;
  keyFile: string;
  cert: Buffer;
  /** base64 SHA-256 of the certificate's public key (SubjectPublicKeyInfo, DER). */
  spkiPin: string;
}

/** `names`: the subject-alt-names, e.g. ['DNS:localhost', 'IP:127.0.0.1'] (none: a certificate that names no host). */
export function makeSelfSignedCert(names: string[] = ['DNS:localhost', 'IP:127.0.0.1']): SelfSignedCert {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-cert-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  const san = names.length > 0 ? ['-addext', `subjectAltName=${names.join(',')}`] : [];
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2'].concat([
      '-subj',
      '/CN=maestro-test',
      ...san,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]),
    { stdio: 'ignore' },
  );
  const cert = fs.readFileSync(certFile);
  const spki = new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' });
  return { dir, certFile, keyFile, cert, spkiPin: createHash('sha256').update(spki).digest('base64') };
}
