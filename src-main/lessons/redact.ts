// Secrets out of what a lesson keeps (P2.08): the same rule that keeps keys out of logs and errors (a known secret's
// value replaced wherever it appears, llm/client.ts, mcp/session.ts), and the shapes keys have when the secret is not
// one this host knows (a key pasted into a command, a token in a tool's output that the model quoted).

const MASK = '[redacted]';

/** Token shapes worth hiding even when they are not one of this host's secrets. Each is linear (no nested repeats). */
const SHAPES: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI and compatible API keys
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{30,}/g, // Google API keys
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, // JWTs
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}/gi,
  // key=value and "key": "value" where the key names a secret
  /\b((?:api[_-]?key|secret|token|password|passwd|access[_-]?key|auth)[A-Za-z_]*["']?\s*[:=]\s*["']?)[^\s"',;]{6,}/gi,
];

/**
 * `text` with every known secret (at least 4 characters: shorter ones would mask ordinary words) and every token shape
 * replaced by [redacted]. Known secrets first, so a key is hidden whole even where a shape would catch only part.
 */
export function redactSecrets(text: string, known: readonly string[] = []): string {
  let out = text;
  for (const secret of [...known].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) {
    out = out.split(secret).join(MASK);
  }
  for (const shape of SHAPES) {
    out = out.replace(shape, (_match, prefix?: string) =>
      typeof prefix === 'string' && /[:=]\s*["']?$/.test(prefix) ? `${prefix}${MASK}` : MASK,
    );
  }
  return out;
}
