// How main reaches a host's bridge: one HTTP(S) request, or the event stream's response, to an endpoint — a host over
// TLS (trusting the system's roots, a given certificate, or exactly the certificate of an SPKI pin) or the local end
// of an SSH tunnel (plain HTTP on 127.0.0.1, sending the remote bridge's own Host). The token goes only in the
// Authorization header, and only once the TLS handshake has verified the host; failures come back as HostError, whose
// message names what failed and never holds the token.
import { createHash, X509Certificate } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import tls, { type PeerCertificate } from 'node:tls';
import { CodedError } from '../../src-shared/errors';

export interface HostEndpoint {
  /** https://name:port, or the tunnel's http://127.0.0.1:port. */
  url: string;
  token: string;
  /** The Host header to send (an SSH tunnel's hostHeader); default the url's own. */
  hostHeader?: string;
  /** PEM the host's certificate must chain to (a self-signed host's own certificate); default the system's roots. */
  ca?: Buffer;
  /** The base64 SHA-256 of the SPKI the host's certificate must have. */
  spkiPin?: string;
}

export type HostErrorCode = 'unreachable' | 'certificate' | 'unauthorized' | 'refused' | 'not_maestro';

export class HostError extends CodedError {
  constructor(
    readonly code: HostErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface HostAnswer {
  status: number;
  json: unknown;
}

/** The pin of a certificate, as Chromium's --ignore-certificate-errors-spki-list and Settings → Hosts write it. */
export function spkiPinOf(der: Buffer): string {
  const spki = new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

const TLS_CERT_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME|PIN/;

/** A socket-level failure, said as what failed: the certificate, or reaching the address. */
export function networkFailure(url: string, error: NodeJS.ErrnoException): HostError {
  const code = error.code ?? '';
  if (TLS_CERT_CODES.test(code)) {
    return new HostError(
      'certificate',
      `the certificate of ${url} is not trusted (${code}: ${error.message}); give the host's certificate file or its SPKI pin`,
    );
  }
  return new HostError('unreachable', `cannot reach ${url}: ${code || error.message}`);
}

/** Node's TLS options for the endpoint: its trust, and the pin checked on every connection (after the name). */
function tlsOptions(endpoint: HostEndpoint): https.RequestOptions {
  if (!endpoint.url.startsWith('https:')) return {};
  const pin = endpoint.spkiPin;
  return {
    ...(endpoint.ca ? { ca: endpoint.ca } : {}),
    checkServerIdentity: (name: string, cert: PeerCertificate) => {
      const wrongName = tls.checkServerIdentity(name, cert);
      if (wrongName) return wrongName;
      if (pin && spkiPinOf(cert.raw) !== pin) {
        return Object.assign(new Error(`its key's pin is ${spkiPinOf(cert.raw)}, not the pin given`), {
          code: 'ERR_TLS_PIN_MISMATCH',
        });
      }
      return undefined;
    },
  };
}

export interface HostRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** No answer (headers) within this long fails as unreachable. */
  timeoutMs?: number;
}

/** Sends the request; resolves with the response (unread) once its headers arrive. */
export function openHostResponse(endpoint: HostEndpoint, request: HostRequest): Promise<IncomingMessage> {
  const url = new URL(request.path, endpoint.url);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const send = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: request.method,
        agent: false,
        ...tlsOptions(endpoint),
        headers: {
          host: endpoint.hostHeader ?? url.host,
          authorization: `Bearer ${endpoint.token}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
      },
      resolve,
    );
    const timer = request.timeoutMs
      ? setTimeout(
          () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })),
          request.timeoutMs,
        )
      : undefined;
    req.on('response', () => clearTimeout(timer));
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(networkFailure(endpoint.url, error));
    });
    req.end(body);
  });
}

/** One request answered as JSON (a body that is not JSON is `not_maestro`). */
export async function hostRequest(endpoint: HostEndpoint, request: HostRequest): Promise<HostAnswer> {
  const response = await openHostResponse(endpoint, request);
  let text = '';
  response.setEncoding('utf8');
  for await (const chunk of response) text += chunk as string;
  try {
    return { status: response.statusCode ?? 0, json: JSON.parse(text) };
  } catch {
    throw new HostError(
      'not_maestro',
      `${endpoint.url} answered HTTP ${response.statusCode} that is not MAESTRO's JSON: is it a MAESTRO host?`,
    );
  }
}

/**
 * The certificate a host presents, for trusting it by its pin: read without verifying (nothing is sent over this
 * connection), compared with the pin, and answered as PEM to be trusted as its own root from then on.
 */
export function certificateForPin(url: string, pin: string, timeoutMs = 10_000): Promise<Buffer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: hostname,
      port: Number(port || 443),
      servername: /^[\d.]+$|:/.test(hostname) ? undefined : hostname,
      rejectUnauthorized: false,
    });
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(Object.assign(new Error('no TLS handshake in time'), { code: 'ETIMEDOUT' })),
    );
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      socket.end();
      if (!cert?.raw) return reject(new HostError('certificate', `${url} presented no certificate`));
      const presented = spkiPinOf(cert.raw);
      if (presented !== pin) {
        return reject(
          new HostError('certificate', `${url} presented a certificate whose SPKI pin is ${presented}, not ${pin}`),
        );
      }
      const pem = `-----BEGIN CERTIFICATE-----\n${cert.raw.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
      resolve(Buffer.from(pem.replace(/\n\n/g, '\n')));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => reject(networkFailure(url, error)));
  });
}
