// The bridge's address kept across restarts: host.json (0600) in the data dir holds the last port and the token, so a
// browser tab or a script that knew the host finds it again after a restart, with nothing to re-enter.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../workspace/atomic-write';
import { hostAddressFile } from '../workspace/paths';
import { DEFAULT_BIND } from './listener';
import { type Bridge, type BridgeOptions, startBridge } from './server';

const HostAddress = z.object({ port: z.number().int().min(1).max(65535), token: z.string().min(32) }).strict();
type HostAddress = z.infer<typeof HostAddress>;

export interface KeptAddressOptions extends Omit<BridgeOptions, 'token' | 'port'> {
  /** A port the person asked for (0: any free one); without it, the kept port, else any free one. */
  port?: number;
  /** A fresh token, e.g. when the old one was shown to someone it should not have been. */
  newToken?: boolean;
}

export interface KeptAddress {
  bridge: Bridge;
  token: string;
  /** Said at start when the address differs from the kept one (why, and what open tabs need). */
  note?: string;
}

/**
 * Listens on the kept port with the kept token (each made the first time) and keeps the address it got (the caller
 * writes bridge.json once the core runs). A kept port now taken by someone else gives way to a free one, and the note says so; a port the person
 * named is never swapped for another (the error says it is taken).
 */
export async function startBridgeAtKeptAddress(options: KeptAddressOptions): Promise<KeptAddress> {
  const { port: requested, newToken, ...bridgeOptions } = options;
  const dataDir = options.maestro.ctx.dataDir;
  const kept = readHostAddress(dataDir);
  const notes: string[] = [];
  if (kept.problem) notes.push(`${hostAddressFile(dataDir)} ${kept.problem}: a new address and token`);
  const token = (!newToken && kept.address?.token) || randomBytes(32).toString('base64url');
  const port = requested ?? kept.address?.port ?? 0;

  let bridge: Bridge;
  try {
    bridge = await startBridge({ ...bridgeOptions, token, port });
  } catch (error) {
    const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    if (requested !== undefined || !taken)
      throw new Error(`cannot listen on ${options.bind ?? DEFAULT_BIND}:${port}: ${(error as Error).message}`);
    bridge = await startBridge({ ...bridgeOptions, token, port: 0 });
    notes.push(`port ${port} is taken: listening on ${bridge.port} instead (open tabs need the new address)`);
  }
  writeFileAtomic(hostAddressFile(dataDir), `${JSON.stringify({ port: bridge.port, token }, null, 2)}\n`, 0o600);
  return { bridge, token, ...(notes.length > 0 ? { note: notes.join('; ') } : {}) };
}

function readHostAddress(dataDir: string): { address?: HostAddress; problem?: string } {
  let text: string;
  try {
    text = fs.readFileSync(hostAddressFile(dataDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    return { problem: `cannot be read (${(error as NodeJS.ErrnoException).code})` };
  }
  try {
    const parsed = HostAddress.safeParse(JSON.parse(text));
    return parsed.success ? { address: parsed.data } : { problem: 'does not hold a port and a token' };
  } catch {
    return { problem: 'is not JSON' };
  }
}
