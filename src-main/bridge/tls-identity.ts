// The bridge's TLS identity: a PEM certificate and its private key read from files and checked before anything starts,
// with the names the certificate covers (the only names, besides loopback, the bridge answers to over TLS).
import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs';

export interface TlsIdentity {
  cert: Buffer;
  key: Buffer;
  certificate: X509Certificate;
  /** The certificate's subject-alt-names in its own order: the names clients verify, the first one names the URL. */
  names: string[];
}

export class TlsIdentityError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Reads and checks the pair; every problem names the file it is about. */
export function loadTlsIdentity(certFile: string, keyFile: string): TlsIdentity {
  const cert = readPem(certFile, 'certificate', /-----BEGIN CERTIFICATE-----/);
  const key = readPem(keyFile, 'private key', /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch (error) {
    throw new TlsIdentityError(`--tls-cert ${certFile}: not a readable certificate (${(error as Error).message})`);
  }
  let privateKey: ReturnType<typeof createPrivateKey>;
  try {
    privateKey = createPrivateKey(key);
  } catch (error) {
    // An encrypted key would need a passphrase at every start, which a service cannot type.
    throw new TlsIdentityError(
      `--tls-key ${keyFile}: not a usable private key, or one protected by a passphrase (${(error as Error).message})`,
    );
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new TlsIdentityError(`--tls-key ${keyFile} is not the private key of the certificate in ${certFile}`);
  }
  if (Date.parse(certificate.validTo) < Date.now()) {
    throw new TlsIdentityError(`--tls-cert ${certFile} expired on ${certificate.validTo}`);
  }
  const names = subjectAltNames(certificate);
  if (names.length === 0) {
    // Browsers ignore the subject's CN: a certificate without subject-alt-names verifies for no name at all.
    throw new TlsIdentityError(`--tls-cert ${certFile} names no host (no subjectAltName DNS or IP entry)`);
  }
  return { cert, key, certificate, names };
}

function readPem(file: string, what: string, begins: RegExp): Buffer {
  const flag = what === 'certificate' ? '--tls-cert' : '--tls-key';
  let data: Buffer;
  try {
    data = fs.readFileSync(file);
  } catch (error) {
    throw new TlsIdentityError(`${flag} ${file} cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  if (!begins.test(data.toString('latin1'))) throw new TlsIdentityError(`${flag} ${file} holds no PEM ${what}`);
  return data;
}

/** `DNS:a, IP Address:1.2.3.4` → ['a', '1.2.3.4']; other kinds (email, URI) name no host. */
function subjectAltNames(certificate: X509Certificate): string[] {
  const names: string[] = [];
  for (const entry of (certificate.subjectAltName ?? '').split(', ')) {
    const dns = /^DNS:(.+)$/.exec(entry);
    const ip = /^IP Address:(.+)$/.exec(entry);
    if (dns?.[1]) names.push(dns[1].toLowerCase());
    else if (ip?.[1]) names.push(ip[1].toLowerCase());
  }
  return names;
}
