// The headless host serving a team: `--bind 0.0.0.0 --tls-cert --tls-key` with a real self-signed certificate made by
// openssl. A client that trusts it gets /health; plain HTTP, a client that does not trust it, a name the certificate
// does not cover and a rebound Host header get nothing.
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostProcess, startHostProcess } from '../../test-support/headless-process';
import { makeSelfSignedCert, type SelfSignedCert } from '../../test-support/self-signed-cert';

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: responses are inspected freely
  json: any;
}

/** GET over HTTPS with Node's own verification; `ca` is what the client trusts (none: the system's roots). */
function httpsGet(
  port: number,
  apiPath: string,
  options: { ca?: Buffer; servername?: string; host?: string; token?: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/local${apiPath}`,
        servername: options.servername ?? 'localhost',
        ca: options.ca,
        agent: false,
        headers: {
          host: options.host ?? `localhost:${port}`,
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(body) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A plain-HTTP request written by hand on a raw socket: whatever comes back before the socket closes. */
function plainHttp(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET /api/local/health HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`);
    });
    let got = '';
    socket.setEncoding('latin1').on('data', (c: string) => {
      got += c;
    });
    socket.on('error', () => resolve(got));
    socket.on('close', () => resolve(got));
  });
}

describe('headless host over TLS', { timeout: 60_000 }, () => {
  let cert: SelfSignedCert;
  let host: HostProcess;
  let port: number;
  let root: string;

  beforeAll(async () => {
    cert = makeSelfSignedCert(['DNS:localhost', 'IP:127.0.0.1']);
    // Kept for the whole file (tempDir() is emptied after each test).
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'maestro-tls-host-'));
    host = await startHostProcess(path.join(root, 'data'), root, {}, [
      '--bind',
      '0.0.0.0',
      '--tls-cert',
      cert.certFile,
      '--tls-key',
      cert.keyFile,
      '--host-name',
      'build-box',
    ]);
    port = Number(new URL(host.url).port);
  }, 60_000);
  afterAll(async () => {
    host.child.kill('SIGTERM');
    expect(await host.exited).toEqual({ code: 0, signal: null });
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cert.dir, { recursive: true, force: true });
  });

  it('P1.28 announces an https URL named by the certificate and answers /health, with its --host-name, to a client that trusts the certificate', async () => {
    expect(host.url).toBe(`https://localhost:${port}`);
    const health = await httpsGet(port, '/health', { ca: cert.cert, token: host.token });
    expect(health).toEqual({ status: 200, json: { ok: true, version: expect.any(String), host: 'build-box' } });
    // Its IP name, verified as such, is one of the certificate's too.
    const byIp = await httpsGet(port, '/health', {
      ca: cert.cert,
      servername: '',
      host: `127.0.0.1:${port}`,
      token: host.token,
    });
    expect(byIp.status).toBe(200);
    // TLS does not replace the token.
    expect((await httpsGet(port, '/health', { ca: cert.cert })).status).toBe(401);
  });

  it('refuses plain HTTP on its port: no answer at all, so nothing (not even the token check) is served in clear', async () => {
    expect(await plainHttp(port)).not.toMatch(/^HTTP\/1\.1 /);
  });

  it('a client that does not trust the certificate fails verification and sends nothing', async () => {
    await expect(httpsGet(port, '/health', { token: host.token })).rejects.toMatchObject({
      code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY/),
    });
    // Trusting another certificate is not trusting this one.
    const other = makeSelfSignedCert(['DNS:localhost']);
    fs.rmSync(other.dir, { recursive: true, force: true });
    await expect(httpsGet(port, '/health', { ca: other.cert, token: host.token })).rejects.toMatchObject({
      code: expect.stringMatching(/SELF_SIGNED|UNABLE_TO_VERIFY/),
    });
    // A name the certificate does not cover fails the client's own name check.
    await expect(
      httpsGet(port, '/health', { ca: cert.cert, servername: 'maestro.example.com', token: host.token }),
    ).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
  });

  it('DNS rebinding over TLS: a Host the certificate does not cover, or another port, is 403 even with the token', async () => {
    for (const rebound of [
      `attacker.example:${port}`,
      `localhost.attacker.example:${port}`,
      `localhost:${port + 1}`,
      'localhost',
    ]) {
      const answer = await httpsGet(port, '/health', { ca: cert.cert, host: rebound, token: host.token });
      expect(answer, rebound).toEqual({
        status: 403,
        json: { error: { code: 'forbidden', message: 'unexpected Host header' } },
      });
    }
  });
});
