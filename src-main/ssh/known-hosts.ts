// OpenSSH's known_hosts, read as `ssh` reads it: which host keys a host may present (plain and hashed `|1|` names,
// `[host]:port`, `*`/`?` patterns and `!` negations, `@revoked` keys), and the SHA256 fingerprint `ssh` shows for a key.
import { createHash, createHmac } from 'node:crypto';
import type { ServerHostKeyAlgorithm } from 'ssh2';

export interface KnownKeys {
  /** Keys the file accepts for the host, as SSH wire-format blobs. */
  accepted: Buffer[];
  /** Keys the file marks `@revoked` (for any host): never accepted. */
  revoked: Buffer[];
  /** The key types of `accepted`, in file order: the host key algorithms to ask the server for. */
  types: string[];
}

/** The name known_hosts files use for a host: `host` on port 22, `[host]:port` otherwise. */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host.toLowerCase() : `[${host.toLowerCase()}]:${port}`;
}

export function knownKeysFor(text: string, host: string, port: number): KnownKeys {
  const name = knownHostsName(host, port);
  const found: KnownKeys = { accepted: [], revoked: [], types: [] };
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    const marker = fields[0]?.startsWith('@') ? fields.shift() : undefined;
    const [names, type, base64] = fields;
    if (!names || !type || !base64) continue;
    const key = Buffer.from(base64, 'base64');
    if (marker === '@revoked') {
      found.revoked.push(key);
      continue;
    }
    // @cert-authority lines sign host certificates, which this client does not take: such a host stays unknown.
    if (marker !== undefined || !namesMatch(names, name)) continue;
    found.accepted.push(key);
    if (!found.types.includes(type)) found.types.push(type);
  }
  return found;
}

/** `SHA256:…` (base64, no padding), as `ssh` and `ssh-keygen -l` print it. */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The key type named inside an SSH wire-format key blob (its first string), e.g. `ssh-ed25519`. */
export function keyType(key: Buffer): string {
  if (key.length < 4) return 'unknown';
  const length = key.readUInt32BE(0);
  return key.subarray(4, 4 + length).toString('latin1');
}

/** A hashed entry (`|1|salt|hash`) or a comma list of patterns where a negation that matches vetoes the line. */
function namesMatch(names: string, name: string): boolean {
  if (names.startsWith('|1|')) {
    const [, , salt, hash] = names.split('|');
    if (!salt || !hash) return false;
    const mac = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64');
    return mac === hash;
  }
  let matched = false;
  for (const pattern of names.toLowerCase().split(',')) {
    const negated = pattern.startsWith('!');
    if (!globMatch(negated ? pattern.slice(1) : pattern, name)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}

function globMatch(pattern: string, name: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replaceAll('*', '.*')
    .replaceAll('?', '.');
  return new RegExp(`^${source}$`).test(name);
}

const RSA_ALGORITHMS: ServerHostKeyAlgorithm[] = ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'];

/** The host key algorithms to ask a server for, so that it shows a key of one of these types (RSA: any signature). */
export function hostKeyAlgorithms(known: Pick<KnownKeys, 'types'>): ServerHostKeyAlgorithm[] {
  return known.types.flatMap((type) => (type === 'ssh-rsa' ? RSA_ALGORITHMS : [type as ServerHostKeyAlgorithm]));
}
