// The bridge's certificate and key as read at start (real files made by openssl): a good pair gives its names; every
// way a pair can be wrong is an error naming the flag and the file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from '../../test-support/self-signed-cert';
import { listenPlanProblem } from './listener';
import { loadTlsIdentity, TlsIdentityError } from './tls-identity';

const cert = makeSelfSignedCert(['DNS:localhost', 'IP:127.0.0.1']);
const other = makeSelfSignedCert(['DNS:localhost']);
const noNames = makeSelfSignedCert([]);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-tls-files-'));
afterAll(() => {
  for (const made of [cert.dir, other.dir, noNames.dir, dir]) fs.rmSync(made, { recursive: true, force: true });
});

const refusal = (certFile: string, keyFile: string): string => {
  try {
    loadTlsIdentity(certFile, keyFile);
  } catch (error) {
    expect(error).toBeInstanceOf(TlsIdentityError);
    return (error as Error).message;
  }
  throw new Error('the pair was accepted');
};

describe('loadTlsIdentity', () => {
  it('a matching pair: its subject-alt-names, in order', () => {
    expect(loadTlsIdentity(cert.certFile, cert.keyFile).names).toEqual(['localhost', '127.0.0.1']);
  });

  it('missing, not PEM, swapped, mismatched, passphrase-protected or nameless: an error naming the flag and file', () => {
    const missing = path.join(dir, 'missing.pem');
    const notPem = path.join(dir, 'not-pem.pem');
    fs.writeFileSync(notPem, 'just some text\n');
    const garbledCert = path.join(dir, 'garbled-cert.pem');
    fs.writeFileSync(garbledCert, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const locked = path.join(dir, 'locked.pem');
    fs.writeFileSync(
      locked,
      execFileSync('openssl', ['pkey', '-in', cert.keyFile, '-aes256', '-passout', 'pass:secret']),
    );
    expect(refusal(missing, cert.keyFile)).toBe(`--tls-cert ${missing} cannot be read (ENOENT)`);
    expect(refusal(cert.certFile, missing)).toBe(`--tls-key ${missing} cannot be read (ENOENT)`);
    expect(refusal(notPem, cert.keyFile)).toBe(`--tls-cert ${notPem} holds no PEM certificate`);
    expect(refusal(cert.keyFile, cert.keyFile)).toBe(`--tls-cert ${cert.keyFile} holds no PEM certificate`);
    expect(refusal(cert.certFile, cert.certFile)).toBe(`--tls-key ${cert.certFile} holds no PEM private key`);
    expect(refusal(garbledCert, cert.keyFile)).toMatch(
      new RegExp(`^--tls-cert ${garbledCert}: not a readable certificate`),
    );
    expect(refusal(cert.certFile, locked)).toMatch(
      new RegExp(`^--tls-key ${locked}: not a usable private key, or one protected by a passphrase`),
    );
    expect(refusal(cert.certFile, other.keyFile)).toBe(
      `--tls-key ${other.keyFile} is not the private key of the certificate in ${cert.certFile}`,
    );
    expect(refusal(noNames.certFile, noNames.keyFile)).toBe(
      `--tls-cert ${noNames.certFile} names no host (no subjectAltName DNS or IP entry)`,
    );
  });
});

describe('listenPlanProblem', () => {
  it('plain HTTP on loopback only; beyond it only with TLS; --bind takes addresses, not names', () => {
    const tls = loadTlsIdentity(cert.certFile, cert.keyFile);
    for (const bind of ['127.0.0.1', '::1', 'localhost']) expect(listenPlanProblem({ bind }), bind).toBeUndefined();
    for (const bind of ['0.0.0.0', '::', '192.168.1.20', '127.0.0.2']) {
      expect(listenPlanProblem({ bind }), bind).toMatch(/serves beyond this machine/);
      expect(listenPlanProblem({ bind, tls }), bind).toBeUndefined();
    }
    expect(listenPlanProblem({ bind: 'buildbox.example.com', tls })).toMatch(/--bind must be an IP address/);
  });
});
