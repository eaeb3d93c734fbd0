// The Host check against a real certificate (openssl): loopback names at the port, the certificate's names (DNS, IP,
// a wildcard for one label only) over TLS, and nothing else — no other port, no rebound or look-alike name.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSelfSignedCert } from '../../test-support/self-signed-cert';
import { hostCheck } from './host-check';
import { loadTlsIdentity } from './tls-identity';

const cert = makeSelfSignedCert(['DNS:maestro.example.com', 'DNS:*.team.example', 'IP:10.0.0.5', 'IP:fd00::5']);
afterAll(() => fs.rmSync(cert.dir, { recursive: true, force: true }));

describe('hostCheck', () => {
  it('plain HTTP: only 127.0.0.1, localhost and [::1] at its port', () => {
    const allowed = hostCheck(4000, undefined);
    for (const host of ['127.0.0.1:4000', 'LOCALHOST:4000', '[::1]:4000']) expect(allowed(host), host).toBe(true);
    for (const host of [
      undefined,
      '',
      '127.0.0.1',
      '127.0.0.1:4001',
      'maestro.example.com:4000',
      'attacker.example:4000',
      '127.0.0.1:4000@attacker.example',
      '127.0.0.1:4000 ',
      '10.0.0.5:4000',
    ]) {
      expect(allowed(host), String(host)).toBe(false);
    }
  });

  it('TLS: also the names the certificate covers, matched as a TLS client matches them', () => {
    const tls = loadTlsIdentity(cert.certFile, cert.keyFile);
    // Node spells IPv6 names out in full.
    expect(tls.names).toEqual(['maestro.example.com', '*.team.example', '10.0.0.5', 'fd00:0:0:0:0:0:0:5']);
    const allowed = hostCheck(8443, tls);
    for (const host of [
      'maestro.example.com:8443',
      'Maestro.Example.COM:8443',
      'alice.team.example:8443',
      '10.0.0.5:8443',
      '[fd00::5]:8443',
      'localhost:8443',
    ]) {
      expect(allowed(host), host).toBe(true);
    }
    for (const host of [
      'maestro.example.com:8444',
      'maestro.example.com',
      'team.example:8443',
      'a.b.team.example:8443',
      'maestro.example.com.attacker.example:8443',
      'attacker.example:8443',
      '10.0.0.6:8443',
    ]) {
      expect(allowed(host), host).toBe(false);
    }
    // Port 443 is the one a browser leaves out.
    expect(hostCheck(443, tls)('maestro.example.com')).toBe(true);
  });
});
