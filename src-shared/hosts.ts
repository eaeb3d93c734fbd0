// Settings → Hosts: which host the desktop's window shows — this computer's core, a host over TLS, or one reached
// through SSH — as the window asks main to choose it (main parses it with these schemas before anything is used), and
// what main tells the window of the host it shows. The token never travels back: the window only ever sends it.
import { z } from 'zod';

const Token = z.string().trim().min(1, "the host's token is required").max(1000);
const FilePath = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), {
    message: 'must be an absolute path',
  });
const Port = z.coerce.number().int().min(1, 'must be 1–65535').max(65535, 'must be 1–65535');
/** base64 SHA-256 of the certificate's public key (SubjectPublicKeyInfo), as Chromium's SPKI pins are written. */
const SpkiPin = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9+/]{43}=$/, 'must be a base64 SHA-256 (44 characters ending in =)');

/** An https origin (a path, query or credentials would be ignored, so they are refused instead). */
export const HostUrl = z
  .string()
  .trim()
  .min(1, 'the host address is required')
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'is not a URL (e.g. https://buildbox.example.com:8443)' });
      return;
    }
    if (url.protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'must start with https:// (TLS)' });
    else if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
      ctx.addIssue({ code: 'custom', message: 'must be the host alone, e.g. https://buildbox.example.com:8443' });
  })
  .transform((value) => new URL(value).origin);

export const HostChoice = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('local') }),
  z
    .strictObject({
      kind: z.literal('tls'),
      url: HostUrl,
      token: Token,
      /** A self-signed host: trust exactly this certificate (PEM) … */
      certFile: FilePath.optional(),
      /** … or the certificate whose public key has this pin. Neither: the system's roots. */
      spkiPin: SpkiPin.optional(),
    })
    .refine((c) => !(c.certFile && c.spkiPin), {
      message: 'give a certificate file or an SPKI pin, not both',
      path: ['spkiPin'],
    }),
  z
    .strictObject({
      kind: z.literal('ssh'),
      host: z
        .string()
        .trim()
        .min(1, 'the SSH host is required')
        .max(255)
        .regex(/^[A-Za-z0-9.:_[\]-]+$/, 'must be a host name or address'),
      port: Port.default(22),
      user: z
        .string()
        .trim()
        .min(1, 'the SSH user is required')
        .max(64)
        .regex(/^[A-Za-z0-9._-]+$/, 'must be a user name'),
      /** The person's SSH agent (SSH_AUTH_SOCK), or a key file; never a key typed here. */
      auth: z.enum(['agent', 'key']),
      keyFile: FilePath.optional(),
      /** The remote host's bridge port, on its loopback. */
      remotePort: Port,
      token: Token,
    })
    .refine((c) => c.auth !== 'key' || c.keyFile, { message: 'the key file is required', path: ['keyFile'] }),
]);
export type HostChoice = z.infer<typeof HostChoice>;
export type HostChoiceInput = z.input<typeof HostChoice>;
export type HostKind = HostChoice['kind'];

/** The host the window shows: its name (from its /health; this computer's own for the local core) and address. */
export const HostView = z.strictObject({
  kind: z.enum(['local', 'tls', 'ssh']),
  name: z.string(),
  /** https://… or user@host:port; empty for this computer. */
  address: z.string(),
});
export type HostView = z.infer<typeof HostView>;
